import { describe, expect, it } from "vitest"
import { adminListCases, MERCHANT_FIELDS } from "./admin-list-cases.js"
import { expectError, expectOk, ISO_MICROS } from "./assertions.js"
import { createMerchant, readSettings, uniqueName, withSettings } from "./fixtures.js"
import { adminRequest, apiRequest, rawRequest, type Target } from "./signing.js"

const UNAUTHORIZED = { status: 401, errorCode: "UNAUTHORIZED", message: "A valid admin bearer token is required.", errors: {} }
const MISSING_MERCHANT = { status: 404, errorCode: "NOT_FOUND", message: "Merchant not found.", errors: {} }
const NO_SUCH_ID = 987_654_321

/** The operator's API under /admin/v1: bearer token, merchants (and their list), credentials, currencies, settings. */
export const adminCases = (target: () => Target) =>
  describe("admin API", () => {
    it("refuses a missing, wrong or malformed bearer token with 401 UNAUTHORIZED, before reading the body or the id", async () => {
      const { baseUrl, adminToken } = target()
      const attempts: ReadonlyArray<Record<string, string>> = [
        {},
        { authorization: "Bearer wrong-token" },
        { authorization: `Bearer ${adminToken}x` },
        { authorization: `Bearer ${adminToken.slice(0, -1)}` },
        { authorization: "Bearer " },
        { authorization: adminToken },
        { authorization: `Basic ${Buffer.from(`admin:${adminToken}`).toString("base64")}` },
        { "x-admin-token": adminToken }
      ]
      for (const headers of attempts) {
        expectError(await rawRequest({ baseUrl }, { method: "GET", path: "/admin/v1/settings", headers }), UNAUTHORIZED)
        expectError(await rawRequest({ baseUrl }, { method: "GET", path: `/admin/v1/merchants/${NO_SUCH_ID}`, headers }), UNAUTHORIZED)
        expectError(await rawRequest({ baseUrl }, { method: "GET", path: "/admin/v1/merchants?per_page=0", headers }), UNAUTHORIZED)
        expectError(
          await rawRequest({ baseUrl }, { method: "POST", path: "/admin/v1/merchants", headers: { ...headers, "content-type": "application/json" }, body: "{oops" }),
          UNAUTHORIZED
        )
      }
    })

    it("does not let merchant credentials into the admin API", async () => {
      const merchant = await createMerchant(target(), { status: "approved" })
      const issued = expectOk(await adminRequest(target(), "POST", `/merchants/${merchant.id}/credentials`, { environment: "sandbox" }), 201)
      for (const token of [issued.api_key, issued.client_secret, issued.merchant_key]) {
        expectError(await adminRequest({ ...target(), adminToken: token }, "GET", "/settings"), UNAUTHORIZED)
      }
    })

    it("creates a merchant (201), pending by default, with fees as exact JSON numbers, and reads it back", async () => {
      const name = uniqueName("fees")
      const response = await adminRequest(target(), "POST", "/merchants", `{"name":${JSON.stringify(name)},"fee_percent":2.5,"fee_fixed":0.30}`)
      const created = expectOk(response, 201)
      expect(Object.keys(created).sort()).toEqual(MERCHANT_FIELDS)
      expect(Number.isSafeInteger(created.id) && created.id > 0).toBe(true)
      expect(created.created_at).toMatch(ISO_MICROS)
      expect(created).toMatchObject({ name, status: "pending", fee_percent: 2.5, fee_fixed: 0.3, ipn_signature_format: "hex", ipn_json_style: "compact" })
      expect(response.text).toContain('"fee_percent":2.5,')
      expect(response.text).toContain('"fee_fixed":0.3,')
      const read = await adminRequest(target(), "GET", `/merchants/${created.id}`)
      expect(expectOk(read)).toEqual(created)
      expect(read.text).toBe(response.text)
    })

    it("keeps every digit of a fee: no binary floating point between request and response", async () => {
      // 9999999999.99999999 and 12.34567891 do not survive a trip through a double.
      const body = `{"name":"${uniqueName("exact")}","fee_percent":12.34567891,"fee_fixed":9999999999.99999999}`
      const response = await adminRequest(target(), "POST", "/merchants", body)
      expectOk(response, 201)
      expect(response.text).toContain('"fee_percent":12.34567891,')
      expect(response.text).toContain('"fee_fixed":9999999999.99999999,')
      const defaults = await adminRequest(target(), "POST", "/merchants", { name: uniqueName("defaults") })
      expect(defaults.text).toContain('"fee_percent":0,"fee_fixed":0,')
      const strings = await adminRequest(target(), "POST", "/merchants", { name: uniqueName("strings"), fee_percent: "2.50", fee_fixed: "0.30" })
      expect(strings.text).toContain('"fee_percent":2.5,"fee_fixed":0.3,')
    })

    it.each([
      ["fee_percent", 100.000000001],
      ["fee_percent", 101],
      ["fee_percent", -1],
      ["fee_fixed", -0.01],
      ["fee_fixed", "0.123456789"],
      ["fee_fixed", "1e3"],
      ["dispute_fee", -15],
      ["dispute_fee", "0.123456789"]
    ])("refuses %s %j with 422 INVALID_AMOUNT naming the field", async (field, value) => {
      const response = await adminRequest(target(), "POST", "/merchants", { name: uniqueName("bad fee"), [field]: value })
      expectError(response, { status: 422, errorCode: "INVALID_AMOUNT", fields: [field] })
    })

    it("keeps a dispute fee exact, 0 unless set", async () => {
      const merchant = await createMerchant(target())
      expect((merchant as unknown as { readonly dispute_fee: number }).dispute_fee).toBe(0)
      const patched = await adminRequest(target(), "PATCH", `/merchants/${merchant.id}`, { dispute_fee: "15.00000001" })
      expect(patched.text).toContain('"dispute_fee":15.00000001,')
    })

    it("updates name, status and fees with PATCH, leaving other fields as they were", async () => {
      const merchant = await createMerchant(target(), { fee_percent: 1.5, fee_fixed: 0.25 })
      const renamed = uniqueName("renamed")
      const patched = expectOk(await adminRequest(target(), "PATCH", `/merchants/${merchant.id}`, { name: renamed, status: "approved" }))
      expect(patched).toEqual({ ...merchant, name: renamed, status: "approved" })
      const fees = expectOk(await adminRequest(target(), "PATCH", `/merchants/${merchant.id}`, { fee_fixed: 1 }))
      expect(fees).toEqual({ ...merchant, name: renamed, status: "approved", fee_fixed: 1 })
      expect(expectOk(await adminRequest(target(), "GET", `/merchants/${merchant.id}`))).toEqual(fees)
    })

    it("changes the IPN compatibility settings with PATCH, one at a time, and takes them at creation", async () => {
      const merchant = await createMerchant(target())
      const prefixed = expectOk(await adminRequest(target(), "PATCH", `/merchants/${merchant.id}`, { ipn_signature_format: "sha256=hex" }))
      expect(prefixed).toEqual({ ...merchant, ipn_signature_format: "sha256=hex" })
      const php = expectOk(await adminRequest(target(), "PATCH", `/merchants/${merchant.id}`, { ipn_json_style: "php" }))
      expect(php).toEqual({ ...merchant, ipn_signature_format: "sha256=hex", ipn_json_style: "php" })
      expect(expectOk(await adminRequest(target(), "GET", `/merchants/${merchant.id}`))).toEqual(php)
      const created = expectOk(await adminRequest(target(), "POST", "/merchants", { name: uniqueName("php"), ipn_json_style: "php" }), 201)
      expect(created).toMatchObject({ ipn_signature_format: "hex", ipn_json_style: "php" })
    })

    it.each<readonly [Record<string, unknown>, string, string]>([
      [{ status: "active" }, "VALIDATION_FAILED", "status"],
      [{ status: 3 }, "VALIDATION_FAILED", "status"],
      [{ name: 123 }, "VALIDATION_FAILED", "name"],
      [{ name: "" }, "VALIDATION_FAILED", "name"],
      [{ fee_percent: true }, "INVALID_AMOUNT", "fee_percent"],
      [{ fee_fixed: "abc" }, "INVALID_AMOUNT", "fee_fixed"],
      [{ status: "approved", fee_percent: 500 }, "INVALID_AMOUNT", "fee_percent"],
      [{ ipn_signature_format: "sha256" }, "VALIDATION_FAILED", "ipn_signature_format"],
      [{ ipn_json_style: "PHP" }, "VALIDATION_FAILED", "ipn_json_style"]
    ])("refuses PATCH %j with 422 naming the field, and changes nothing", async (patch, errorCode, field) => {
      const merchant = await createMerchant(target(), { fee_percent: 1.5 })
      const response = await adminRequest(target(), "PATCH", `/merchants/${merchant.id}`, patch)
      expectError(response, { status: 422, errorCode, fields: [field] })
      expect(expectOk(await adminRequest(target(), "GET", `/merchants/${merchant.id}`))).toEqual(merchant)
    })

    it("answers 404 NOT_FOUND for a merchant that does not exist, whatever the id looks like", async () => {
      for (const id of [String(NO_SUCH_ID), "0", "-1", "abc", "1.5", "99999999999999999999"]) {
        expectError(await adminRequest(target(), "GET", `/merchants/${id}`), MISSING_MERCHANT)
        expectError(await adminRequest(target(), "PATCH", `/merchants/${id}`, { status: "approved" }), MISSING_MERCHANT)
      }
      expectError(await adminRequest(target(), "POST", `/merchants/${NO_SUCH_ID}/credentials`, { environment: "sandbox" }), MISSING_MERCHANT)
      expectError(await adminRequest(target(), "PUT", `/merchants/${NO_SUCH_ID}/currencies`, { currency_codes: ["USD"] }), MISSING_MERCHANT)
      expectError(await adminRequest(target(), "POST", `/merchants/${NO_SUCH_ID}/wallets`, { currency_code: "USD", environment: "sandbox" }), MISSING_MERCHANT)
      expectError(await adminRequest(target(), "GET", `/merchants/${NO_SUCH_ID}/wallets`), MISSING_MERCHANT)
    })

    adminListCases(target)

    it("refuses credentials for an environment other than sandbox or production", async () => {
      const merchant = await createMerchant(target())
      for (const body of [{ environment: "staging" }, { environment: "Sandbox" }, {}]) {
        expectError(await adminRequest(target(), "POST", `/merchants/${merchant.id}/credentials`, body), { status: 422, errorCode: "VALIDATION_FAILED", fields: ["environment"] })
      }
    })

    it("replaces a merchant's currencies (200) and refuses an unknown code with 422 INVALID_CURRENCY", async () => {
      const merchant = await createMerchant(target())
      const path = `/merchants/${merchant.id}/currencies`
      const set = expectOk(await adminRequest(target(), "PUT", path, { currency_codes: ["USD", "EUR", "JPY"] }))
      expect(Object.keys(set).sort()).toEqual(["currency_codes", "merchant_id"])
      expect(set.merchant_id).toBe(merchant.id)
      expect([...set.currency_codes].sort()).toEqual(["EUR", "JPY", "USD"])
      const replaced = expectOk(await adminRequest(target(), "PUT", path, { currency_codes: ["GBP"] }))
      expect(replaced.currency_codes).toEqual(["GBP"])
      const refused = expectError(await adminRequest(target(), "PUT", path, { currency_codes: ["USD", "XYZ"] }), { status: 422, errorCode: "INVALID_CURRENCY", fields: ["currency_codes"] })
      expect(refused.errors.currency_codes.join(" ")).toContain("XYZ")
      // Nothing changed by the refused request.
      expect(expectOk(await adminRequest(target(), "PUT", path, { currency_codes: ["GBP"] })).currency_codes).toEqual(["GBP"])
      expectError(await adminRequest(target(), "PUT", path, { currency_codes: "USD" }), { status: 422, errorCode: "VALIDATION_FAILED", fields: ["currency_codes"] })
    })

    it("reads and changes settings; site-info shows the new branding at once", async () => {
      const settings = await readSettings(target())
      expect(Object.keys(settings).sort()).toEqual([
        "gateway_description", "gateway_name", "rate_limit_per_minute", "signature_required",
        "signature_tolerance_seconds", "site_logo", "site_name", "site_url"
      ])
      const merchant = await createMerchant(target(), { status: "approved" })
      const issued = expectOk(await adminRequest(target(), "POST", `/merchants/${merchant.id}/credentials`, { environment: "sandbox" }), 201)
      const siteName = uniqueName("site")
      await withSettings(target(), { site_name: siteName, gateway_name: "Conformance Gateway" }, async () => {
        expect((await readSettings(target())).site_name).toBe(siteName)
        const info = expectOk(await apiRequest(target(), {
          path: "/api/v1/site-info",
          environment: "sandbox",
          merchantKey: issued.merchant_key,
          apiKey: issued.api_key,
          secret: issued.client_secret
        }))
        expect(info).toMatchObject({ site_name: siteName, gateway_name: "Conformance Gateway" })
      })
      expect(await readSettings(target())).toEqual(settings)
    })

    it.each([
      { signature_tolerance_seconds: 0 },
      { signature_tolerance_seconds: 86_401 },
      { signature_tolerance_seconds: 1.5 },
      { rate_limit_per_minute: 0 },
      { rate_limit_per_minute: "60" },
      { signature_required: "false" },
      { site_url: "not a url" },
      { site_name: "" }
    ])("refuses the settings change %j with 422 naming the field, and changes nothing", async (patch) => {
      const before = await readSettings(target())
      expectError(await adminRequest(target(), "PATCH", "/settings", patch), { status: 422, errorCode: "VALIDATION_FAILED", fields: Object.keys(patch) })
      expect(await readSettings(target())).toEqual(before)
    })
  })
