// The billing settings form over HTTP on the real kit: an owner changes what GET /api/v1/billing-settings
// answers, a refusal is said in the API's words with what was typed kept, a viewer only reads.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { IssuedCredentials } from "../../../../hosts/embedding/index.js"
import { formTokenOf, type PlatformDashboard, startPlatformDashboard, textOf } from "../../../../testing/http/platform-dashboard.js"

let kit: PlatformDashboard
let shop: { readonly id: number; readonly credentials: IssuedCredentials }

beforeAll(async () => {
  kit = await startPlatformDashboard()
  shop = await kit.onboard("Billing Shop")
}, 60_000)
afterAll(() => kit.close())

const owner = () => ({ merchant: shop.id })
const PATH = "/dashboard/billing-settings"

describe("billing settings in the dashboard", () => {
  it("shows the defaults, saves an owner's choice, and the API answers it", async () => {
    const page = await kit.page(`${PATH}?environment=sandbox`, owner())
    expect(page.status).toBe(200)
    expect(page.text).toContain('value="1, 3, 7"')
    expect(page.text).toContain('value="14"')
    const saved = await kit.post(PATH, {
      csrf_token: formTokenOf(page.text), environment: "sandbox",
      reminder_days: "2, 4", grace_days: "10", final_action: "stay_past_due", retry_hours: "24 48"
    }, owner())
    expect([saved.status, saved.location]).toEqual([303, `${PATH}?environment=sandbox&done=saved`])
    const api = await kit.api(shop.credentials, "GET", "/api/v1/billing-settings")
    expect(api.json.data).toEqual({ reminder_days: [2, 4], grace_days: 10, final_action: "stay_past_due", retry_hours: [24, 48], portal_cancellation: false })
  })

  it("refuses a reminder after the grace period in the API's words, keeping what was typed", async () => {
    const page = await kit.page(`${PATH}?environment=sandbox`, owner())
    const refused = await kit.post(PATH, {
      csrf_token: formTokenOf(page.text), environment: "sandbox",
      reminder_days: "3, 12", grace_days: "10", final_action: "cancel", retry_hours: "24"
    }, owner())
    expect(refused.status).toBe(422)
    expect(textOf(refused.text)).toContain("Each reminder must come before the grace period ends (day 10)")
    expect(refused.text).toContain('value="3, 12"')
    const words = await kit.post(PATH, {
      csrf_token: formTokenOf(page.text), environment: "sandbox",
      reminder_days: "soon", grace_days: "10", final_action: "cancel", retry_hours: "24"
    }, owner())
    expect([words.status, textOf(words.text)]).toEqual([422, expect.stringContaining("Reminder days must be whole numbers")])
    expect((await kit.api(shop.credentials, "GET", "/api/v1/billing-settings")).json.data.reminder_days).toEqual([2, 4])
  })

  it("a viewer reads them without a form and cannot post one", async () => {
    const viewer = { merchant: shop.id, role: "viewer" as const }
    const page = await kit.page(`${PATH}?environment=sandbox`, viewer)
    expect(page.status).toBe(200)
    expect(page.text).not.toContain('method="post"')
    // An owner's form token, posted by a viewer: refused all the same.
    const token = formTokenOf((await kit.page(`${PATH}?environment=sandbox`, owner())).text)
    expect((await kit.post(PATH, { csrf_token: token, environment: "sandbox", grace_days: "5" }, viewer)).status).toBe(403)
  })
})
