// The Team page: who can sign in to the account, for its owners only, and an empty state that says
// who to ask when the platform signs people in.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type PlatformDashboard, startPlatformDashboard, textOf } from "../../../../testing/http/platform-dashboard.js"

let kit: PlatformDashboard
let shop: { readonly id: number }
let quiet: { readonly id: number }

beforeAll(async () => {
  kit = await startPlatformDashboard()
  shop = await kit.onboard("Team Shop")
  quiet = await kit.onboard("Quiet Shop")
  await kit.payments.admin.users.create(shop.id, { email: "Ann@Team.example", role: "owner" })
  await kit.payments.admin.users.create(shop.id, { email: "bob@team.example", role: "viewer" })
  await kit.payments.admin.users.create(quiet.id, { email: "someone@quiet.example", role: "owner" })
}, 60_000)
afterAll(() => kit.close())

describe("the Team page", () => {
  it("lists the merchant's own people, with role, status and last sign-in, and is in the owners' navigation", async () => {
    const page = await kit.page("/dashboard/team?environment=sandbox", { merchant: shop.id })
    expect(page.status).toBe(200)
    const text = textOf(page.text)
    expect(text).toContain("ann@team.example owner invited never")
    expect(text).toContain("bob@team.example viewer invited never")
    expect(text).not.toContain("someone@quiet.example")
    expect(page.text).toContain('href="/dashboard/team?environment=sandbox" aria-current="page"')
  })

  it("is for owners: a viewer is refused and is not shown the link", async () => {
    const viewer = await kit.page("/dashboard/team?environment=sandbox", { merchant: shop.id, role: "viewer" })
    expect(viewer.status).toBe(403)
    const overview = await kit.page("/dashboard?environment=sandbox", { merchant: shop.id, role: "viewer" })
    expect(overview.text).not.toContain("/dashboard/team")
  })

  it("says who to ask when nobody signs in with the kit", async () => {
    const lonely = await kit.onboard("Lonely Shop")
    const page = await kit.page("/dashboard/team?environment=sandbox", { merchant: lonely.id })
    expect(page.status).toBe(200)
    expect(textOf(page.text)).toContain("People sign in to this account through the platform, which keeps who they are. To add someone, ask the platform's operator.")
  })
})
