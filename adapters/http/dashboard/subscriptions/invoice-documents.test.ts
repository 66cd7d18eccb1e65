import { createServer, type Server } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { IssuedCredentials } from "../../../../hosts/embedding/index.js"
import { type PlatformDashboard, startPlatformDashboard, textOf } from "../../../../testing/http/platform-dashboard.js"
import { pdfText } from "../../../../testing/pdf-text.js"

// The subscription page's invoice documents on the real kit: each invoice row shows its number and
// links its PDF (and, once paid, its receipt), which a PDF parser reads back; nothing of another
// merchant is reachable.

describe("dashboard invoice documents", () => {
  let dash: PlatformDashboard
  let receiver: Server
  let ipnUrl = ""
  let shop: { readonly id: number; readonly credentials: IssuedCredentials }
  let rival: { readonly id: number; readonly credentials: IssuedCredentials }

  const subscribe = async (credentials: IssuedCredentials, reference: string) => {
    const made = await dash.api(credentials, "POST", "/api/v1/subscriptions", {
      payment_amount: "42.50", currency_code: "USD", external_reference: reference, billing_cycle: "monthly",
      customer_email: "ada@example.com", description: "Tea of the month", success_redirect: "https://shop.example/ok",
      cancel_redirect: "https://shop.example/cancel", ipn_url: ipnUrl
    })
    expect(made.status, JSON.stringify(made.json)).toBe(201)
    return made.json.data as { readonly id: string; readonly latest_invoice: { readonly id: string; readonly number: string; readonly trx_id: string } }
  }
  /** A dashboard download as the merchant's owner or viewer would click it. */
  const download = (path: string, merchant: number, role: "owner" | "viewer" = "owner") =>
    fetch(`${dash.origin}${path.replaceAll("&amp;", "&")}`, { headers: { "x-test-merchant": String(merchant), "x-test-role": role }, redirect: "manual" })
  const linksOf = (page: string) => [...page.matchAll(/<a href="([^"]+\/pdf[^"]*)" download>/g)].map((match) => match[1]!)

  beforeAll(async () => {
    receiver = createServer((request, response) => request.resume().on("end", () => response.writeHead(204).end()))
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
    ipnUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/ipn`
    dash = await startPlatformDashboard({ webhooks: { allowPrivateTargets: true, pollIntervalMillis: 50, retryDelaysMillis: [] } })
    shop = await dash.onboard("Tea House")
    rival = await dash.onboard("Rival Teas")
  })
  afterAll(async () => {
    await dash.close()
    await new Promise((resolve) => receiver.close(resolve))
  })

  it("shows each invoice's number with a PDF link, and a receipt link once paid; both read back", async () => {
    const mine = await subscribe(shop.credentials, "docs-1")
    const detail = `/dashboard/subscriptions/${mine.id}?environment=sandbox`
    const before = (await dash.page(detail, { merchant: shop.id })).text
    expect(textOf(before)).toContain(mine.latest_invoice.number)
    const [invoiceLink, ...none] = linksOf(before)
    expect(invoiceLink).toBe(`/dashboard/subscriptions/${mine.id}/invoices/${mine.latest_invoice.id}/pdf?environment=sandbox`)
    expect(none).toEqual([])

    // A viewer may read documents too.
    const invoice = await download(invoiceLink!, shop.id, "viewer")
    expect(invoice.status).toBe(200)
    expect(invoice.headers.get("content-type")).toBe("application/pdf")
    expect(invoice.headers.get("cache-control")).toBe("no-store")
    const invoiceText = await pdfText(new Uint8Array(await invoice.arrayBuffer()))
    for (const expected of ["Tea House", `Invoice ${mine.latest_invoice.number}`, "Tea of the month", "42.50 USD"]) expect(invoiceText).toContain(expected)

    const paid = await dash.api(shop.credentials, "POST", `/api/v1/sandbox/payments/${mine.latest_invoice.trx_id}/simulate`, { outcome: "success" })
    expect(paid.status).toBe(200)
    const links = linksOf((await dash.page(detail, { merchant: shop.id })).text)
    expect(links).toHaveLength(2)
    const receipt = await download(links[1]!, shop.id)
    expect(receipt.status).toBe(200)
    expect(receipt.headers.get("content-disposition")).toBe(`attachment; filename="receipt-${mine.latest_invoice.number}.pdf"`)
    const receiptText = await pdfText(new Uint8Array(await receipt.arrayBuffer()))
    for (const expected of [`Payment receipt ${mine.latest_invoice.number}`, `Payment: ${mine.latest_invoice.trx_id}`, "Total paid", "42.50 USD"]) {
      expect(receiptText).toContain(expected)
    }
  })

  it("another merchant's invoice is a 404 page; an unpaid invoice's receipt a 409 page; an unknown kind 400", async () => {
    const theirs = await subscribe(rival.credentials, "docs-rival")
    const path = `/dashboard/subscriptions/${theirs.id}/invoices/${theirs.latest_invoice.id}/pdf?environment=sandbox`
    const refused = await download(path, shop.id)
    expect(refused.status).toBe(404)
    expect(await refused.text()).not.toContain(theirs.latest_invoice.number)
    expect((await download(path, rival.id)).status).toBe(200)
    expect((await download(`${path}&kind=receipt`, rival.id)).status).toBe(409)
    expect((await download(`${path}&kind=statement`, rival.id)).status).toBe(400)
    const mine = await subscribe(shop.credentials, "docs-crossed")
    // My subscription with their invoice id: not found either.
    expect((await download(`/dashboard/subscriptions/${mine.id}/invoices/${theirs.latest_invoice.id}/pdf?environment=sandbox`, shop.id)).status).toBe(404)
  })
})
