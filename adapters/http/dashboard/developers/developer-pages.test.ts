import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { IssuedCredentials } from "../../../../hosts/embedding/index.js"
import { formTokenOf, type PlatformDashboard, startPlatformDashboard, textOf } from "../../../../testing/http/platform-dashboard.js"

// The Developers page's webhook compatibility form over HTTP on the real kit: owners change the
// merchant's IPN settings (the admin API's ipn_signature_format and ipn_json_style), viewers see them,
// forged and viewer posts are refused, and every change is audited as the dashboard's others are.

describe("dashboard developers page: webhook compatibility", () => {
  let dash: PlatformDashboard
  let shop: { readonly id: number; readonly credentials: IssuedCredentials }
  const owner = () => ({ merchant: shop.id })
  const viewer = () => ({ merchant: shop.id, role: "viewer" as const })
  const PAGE = "/dashboard/developers?environment=sandbox"
  const FORM = "/dashboard/developers/webhook-compatibility"
  const settings = async () => {
    const merchant = await dash.payments.admin.merchants.get(shop.id)
    return [merchant.ipn_signature_format, merchant.ipn_json_style]
  }
  const checked = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)" checked`).exec(html)?.[1]

  beforeAll(async () => {
    dash = await startPlatformDashboard()
    shop = await dash.onboard("Compat Shop")
  }, 60_000)
  afterAll(() => dash?.close())

  it("shows an owner the form with the contract's spelling chosen, and a viewer the values without a form", async () => {
    const page = await dash.page(PAGE, owner())
    expect(page.status).toBe(200)
    expect(page.text).toContain(`action="${FORM}"`)
    expect(checked(page.text, "ipn_signature_format")).toBe("hex")
    expect(checked(page.text, "ipn_json_style")).toBe("compact")
    const seen = await dash.page(PAGE, viewer())
    expect(seen.status).toBe(200)
    expect(seen.text).not.toContain(`action="${FORM}"`)
    expect(textOf(seen.text)).toContain("X-Signature Bare hex")
  })

  it("refuses a post without the form token and a viewer's post with 403, changing nothing", async () => {
    const token = formTokenOf((await dash.page(PAGE, owner())).text)
    const fields = { environment: "sandbox", ipn_signature_format: "sha256=hex", ipn_json_style: "php" }
    expect((await dash.post(FORM, fields, owner())).status).toBe(403)
    expect((await dash.post(FORM, { ...fields, csrf_token: token }, viewer())).status).toBe(403)
    expect(await settings()).toEqual(["hex", "compact"])
  })

  it("saves an owner's choice, which the admin API and the page then show, audited; a value not offered is a 422", async () => {
    const token = formTokenOf((await dash.page(PAGE, owner())).text)
    const refused = await dash.post(FORM, { csrf_token: token, environment: "sandbox", ipn_signature_format: "base64", ipn_json_style: "php" }, owner())
    expect(refused.status).toBe(422)
    expect(textOf(refused.text)).toContain("Choose one of the offered X-Signature and body spellings.")
    expect(await settings()).toEqual(["hex", "compact"])

    const saved = await dash.post(FORM, { csrf_token: token, environment: "sandbox", ipn_signature_format: "sha256=hex", ipn_json_style: "php" }, owner())
    expect(saved.status, saved.text).toBe(303)
    expect(saved.location).toBe("/dashboard/developers?environment=sandbox&done=compatibility-saved")
    expect(await settings()).toEqual(["sha256=hex", "php"])
    const page = await dash.page(saved.location!, owner())
    expect(textOf(page.text)).toContain("Saved.")
    expect(checked(page.text, "ipn_signature_format")).toBe("sha256=hex")
    expect(checked(page.text, "ipn_json_style")).toBe("php")

    const audit = (await dash.payments.admin.audit.list({ merchant_id: shop.id })).data.filter((entry) => entry.route === FORM)
    expect(audit.map((entry) => [entry.actor_type, entry.operation, entry.status, entry.fields])).toEqual([
      ["merchant_user", "updateMerchant", 303, ["ipn_json_style", "ipn_signature_format"]],
      ["merchant_user", "updateMerchant", 422, ["ipn_json_style", "ipn_signature_format"]]
    ])
  })
})
