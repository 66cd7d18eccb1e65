// The overview's last 30 days: a server-drawn chart per currency that is an image with a name and a
// description, and behind it a table with every day's exact figure; figures are not bullet points; a
// merchant with no payment yet is told how to make one.
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type PlatformDashboard, startPlatformDashboard, textOf } from "../../../../testing/http/platform-dashboard.js"

let kit: PlatformDashboard
beforeAll(async () => {
  kit = await startPlatformDashboard()
}, 60_000)
afterAll(() => kit.close())

const DAY = 86_400_000

describe("overview: the last 30 days", () => {
  it("draws each currency's takings as an accessible image, with the exact figures per day in a table", async () => {
    const shop = await kit.onboard(`Chart Shop ${randomUUID()}`)
    for (const amount of [100, 23.45]) {
      const started = await kit.api(shop.credentials, "POST", "/api/v1/initiate-payment", {
        payment_amount: amount, currency_code: "USD", ref_trx: `order-${randomUUID()}`,
        success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel", ipn_url: "https://shop.example/ipn"
      })
      expect(started.status).toBe(200)
      expect((await kit.api(shop.credentials, "POST", `/api/v1/sandbox/payments/${started.json.info.trx_id}/simulate`, { outcome: "success" })).status).toBe(200)
    }
    const page = await kit.page("/dashboard?environment=sandbox", { merchant: shop.id })
    expect(page.status).toBe(200)
    const svg = /<svg role="img" aria-labelledby="([^"]+)"[^>]*>([\s\S]*?)<\/svg>/.exec(page.text)
    expect(svg).not.toBeNull()
    const [titleId, descId] = svg![1]!.split(" ")
    expect(svg![2]).toContain(`<title id="${titleId}">USD taken per day, last 30 days</title>`)
    expect(svg![2]).toContain(`<desc id="${descId}">`)
    expect(svg![2].match(/<rect /g)).toHaveLength(1)
    const table = /<details><summary>USD per day<\/summary><table>([\s\S]*?)<\/table><\/details>/.exec(page.text)
    expect(table).not.toBeNull()
    const rows = [...table![1]!.matchAll(/<tr><th scope="row">(\d{4}-\d{2}-\d{2})<\/th><td class="amount">([^<]+)<\/td><td class="amount">(\d+)<\/td><\/tr>/g)]
      .map((row) => [row[1]!, row[2]!, row[3]!] as const)
    expect(rows).toHaveLength(30)
    expect(Date.parse(rows[29]![0]) - Date.parse(rows[0]![0])).toBe(29 * DAY)
    expect(rows[29]!.slice(1)).toEqual(["123.45 USD", "2"])
    expect(rows.slice(0, 29).every((row) => row[1] === "0.00 USD" && row[2] === "0")).toBe(true)
    expect(textOf(page.text)).toContain("123.45 USD in 2 payments")
    // The figures of the cards are not a bulleted list.
    expect(page.text).not.toMatch(/<li><span class="figure">/)
  })

  it("says how to make the first payment when there is none", async () => {
    const shop = await kit.onboard(`Quiet Shop ${randomUUID()}`)
    const page = await kit.page("/dashboard?environment=sandbox", { merchant: shop.id })
    expect(textOf(page.text)).toContain("No payment completed in the last 30 days. Your site starts one with POST /api/v1/initiate-payment")
    expect(page.text).not.toContain("<svg")
  })
})
