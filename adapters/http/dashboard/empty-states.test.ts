// A new merchant's empty lists say what to do next (how the first payment, event or subscription comes
// about), while a list narrowed by filters to nothing still just says nothing matches.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type PlatformDashboard, startPlatformDashboard, textOf } from "../../../testing/http/platform-dashboard.js"

let kit: PlatformDashboard
let merchant: number

beforeAll(async () => {
  kit = await startPlatformDashboard()
  merchant = (await kit.onboard("Empty Shop")).id
}, 60_000)
afterAll(() => kit.close())

const text = async (path: string) => {
  const page = await kit.page(path, { merchant })
  expect(page.status, path).toBe(200)
  return { text: textOf(page.text), html: page.text }
}

describe("empty states", () => {
  it("no payments yet: how to make one, and where the keys are", async () => {
    const page = await text("/dashboard/payments?environment=sandbox")
    expect(page.text).toContain("No payments yet.")
    expect(page.text).toContain("POST /api/v1/initiate-payment")
    expect(page.html).toContain('href="/dashboard/developers?environment=sandbox"')
    const filtered = await text("/dashboard/payments?environment=sandbox&reference=nothing-here")
    expect(filtered.text).toContain("No payments match.")
    expect(filtered.text).not.toContain("No payments yet.")
  })

  it("no webhook events yet: when they are sent, and a test event to try", async () => {
    const page = await text("/dashboard/webhooks?environment=sandbox")
    expect(page.text).toContain("No webhook events yet.")
    expect(page.text).toContain("Send a test event below")
    expect((await text("/dashboard/webhooks?environment=sandbox&type=payment.completed")).text).toContain("No events match.")
  })

  it("no subscriptions yet: how to create one", async () => {
    const page = await text("/dashboard/subscriptions?environment=sandbox")
    expect(page.text).toContain("No subscriptions yet.")
    expect(page.text).toContain("POST /api/v1/subscriptions")
  })

  it("no API requests yet: what the log holds and how long it is kept", async () => {
    const page = await text("/dashboard/logs?environment=sandbox")
    expect(page.text).toContain("No API requests logged yet.")
    expect(page.text).toContain("every call made to the API with this environment's keys")
    expect(page.text).toContain("Entries are kept for 14 days.")
    expect((await text("/dashboard/logs?environment=sandbox&status=5xx")).text).toContain("No requests match.")
  })
})
