import { describe, expect, it } from "vitest"
import { expectError, expectOk, ISO_MICROS } from "./assertions.js"
import { createMerchant } from "./fixtures.js"
import { adminRequest, type Target } from "./signing.js"

/** The admin audit log: each admin change it just made is listed, newest first, with no secret in it. */
export const auditCases = (target: () => Target) =>
  describe("admin audit log", () => {
    it("lists the changes just made to a merchant, newest first, refused ones too, never a read nor a secret", async () => {
      const merchant = await createMerchant(target(), { status: "pending" })
      expectOk(await adminRequest(target(), "PATCH", `/merchants/${merchant.id}`, { status: "approved", fee_percent: "1.5" }))
      expectOk(await adminRequest(target(), "GET", `/merchants/${merchant.id}`))
      const issued = expectOk(await adminRequest(target(), "POST", `/merchants/${merchant.id}/credentials`, { environment: "sandbox" }), 201)
      expect((await adminRequest(target(), "PATCH", `/merchants/${merchant.id}`, { fee_percent: "101" })).status).toBe(422)

      const response = await adminRequest(target(), "GET", `/audit?merchant_id=${merchant.id}`)
      const page = expectOk(response)
      expect(page.data.map((entry: any) => [entry.operation, entry.method, entry.status])).toEqual([
        ["updateMerchant", "PATCH", 422],
        ["issueCredentials", "POST", 201],
        ["updateMerchant", "PATCH", 200],
        ["createMerchant", "POST", 201]
      ])
      expect(page.next_cursor).toBe(null)
      for (const entry of page.data) {
        expect(entry).toMatchObject({ actor_type: "admin_token", actor_id: expect.stringMatching(/^admin:[0-9a-f]{12}$/), merchant_id: merchant.id })
        expect(entry.created_at).toMatch(ISO_MICROS)
        expect(entry.source_address).not.toBe("")
      }
      expect(page.data[2]).toMatchObject({ route: "/admin/v1/merchants/{id}", path_params: { id: String(merchant.id) }, fields: ["fee_percent", "status"] })
      for (const secret of [target().adminToken, issued.api_key, issued.client_secret, issued.webhook_secret]) expect(response.text).not.toContain(secret)

      const first = expectOk(await adminRequest(target(), "GET", `/audit?merchant_id=${merchant.id}&limit=3`))
      expect(first.data).toEqual(page.data.slice(0, 3))
      const rest = expectOk(await adminRequest(target(), "GET", `/audit?merchant_id=${merchant.id}&limit=3&cursor=${first.next_cursor}`))
      expect(rest).toEqual({ data: page.data.slice(3), has_more: false, next_cursor: null })
    })

    it("refuses a cursor it did not give and a malformed time with 422 naming each", async () => {
      expectError(await adminRequest(target(), "GET", "/audit?cursor=nope"), { status: 422, errorCode: "VALIDATION_FAILED", fields: ["cursor"] })
      expectError(await adminRequest(target(), "GET", "/audit?since=last-week&limit=0"), { status: 422, errorCode: "VALIDATION_FAILED", fields: ["limit", "since"] })
    })
  })
