import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signRequest } from "../../../../core/signing/request-signature.js"
import { waitFor } from "../../../../testing/hosts/child-hosts.js"
import type { IssuedCredentials } from "../../../../hosts/embedding/index.js"
import { type PlatformDashboard, startPlatformDashboard, textOf, type Visitor } from "../../../../testing/http/platform-dashboard.js"

// The Logs pages on the real kit: a merchant's own API calls in the environment shown, newest first,
// narrowed by status, path and dates as GET /api/v1/request-logs narrows them, paged by cursor; an
// entry's page with its bodies, its error and, for a refused signature, what the server signed and
// why the two likely differ. Another merchant's calls are not there at all.

const REFUSED_PATH = "/api/v1/balances"

describe("dashboard logs", () => {
  let dash: PlatformDashboard
  let shop: { readonly id: number; readonly credentials: IssuedCredentials }
  let rival: { readonly id: number; readonly credentials: IssuedCredentials }
  const owner = () => ({ merchant: shop.id })

  const page = async (path: string, visitor: Visitor = owner()) => {
    const answer = await dash.page(path, visitor)
    return { ...answer, words: textOf(answer.text) }
  }
  /** The entry pages the list links to, in its order. */
  const entryLinks = (html: string) => [...html.matchAll(/href="(\/dashboard\/logs\/rl_[0-9a-f]+\?environment=sandbox)"/g)].map((match) => match[1]!)
  const rows = (html: string) => html.split("<tr>").slice(2)

  beforeAll(async () => {
    dash = await startPlatformDashboard()
    shop = await dash.onboard("Logged Shop")
    rival = await dash.onboard("Rival Shop")
    expect((await dash.api(shop.credentials, "GET", "/api/v1/site-info")).status).toBe(200)
    expect((await dash.api(shop.credentials, "GET", "/api/v1/verify-payment/SANDBOX_NOT_THERE")).status).toBe(404)
    expect((await dash.api(shop.credentials, "POST", "/api/v1/initiate-payment", { payment_amount: "-5", currency_code: "USD", card_number: "4242424242424242" })).status).toBe(422)
    // Signed without its query string: refused, and kept in the shop's log with what the server signed.
    const timestamp = String(Math.floor(Date.now() / 1000))
    const refused = await fetch(`${dash.origin}${REFUSED_PATH}?currency=USD`, {
      headers: {
        "x-environment": "sandbox", "x-merchant-key": shop.credentials.merchant_key, "x-api-key": shop.credentials.api_key, "x-timestamp": timestamp,
        "x-signature": signRequest(shop.credentials.client_secret, { timestamp, method: "GET", pathWithQuery: REFUSED_PATH, rawBody: "" })
      }
    })
    expect(refused.status).toBe(401)
    expect((await dash.api(rival.credentials, "GET", "/api/v1/verify-payment/SANDBOX_RIVAL_ONLY")).status).toBe(404)
    // The log is written after the answers, in batches: wait until all four of the shop's are there.
    await waitFor("the shop's four calls in its log", 10_000, async () => (entryLinks((await page("/dashboard/logs?environment=sandbox")).text).length === 4 ? true : undefined))
  }, 60_000)
  afterAll(() => dash?.close())

  it("lists the merchant's calls newest first with method, path, status badge, duration and request id; never another merchant's", async () => {
    const list = await page("/dashboard/logs?environment=sandbox")
    expect(list.status).toBe(200)
    const [refused, newest, middle, oldest] = rows(list.text)
    expect(textOf(refused!)).toMatch(/ GET \/api\/v1\/balances\?currency=USD 401 Unauthorized \d+ ms \S+/)
    expect(textOf(newest!)).toMatch(/ POST \/api\/v1\/initiate-payment 422 Unprocessable Entity \d+ ms \S+/)
    expect(newest).toContain('class="status http-4xx"')
    expect(textOf(middle!)).toContain("GET /api/v1/verify-payment/SANDBOX_NOT_THERE 404 Not Found")
    expect(textOf(oldest!)).toContain("GET /api/v1/site-info 200 OK")
    expect(oldest).toContain('class="status http-2xx"')
    expect(list.words).not.toContain("SANDBOX_RIVAL_ONLY")
    expect(list.text).toContain('aria-current="page">Logs</a>')
    // A viewer reads the same list.
    expect(entryLinks((await page("/dashboard/logs?environment=sandbox", { merchant: shop.id, role: "viewer" })).text)).toHaveLength(4)
  })

  it("narrows by status (one code or a class), by path and by dates; a filter it cannot read is said on the page", async () => {
    const only = async (query: string) => rows((await page(`/dashboard/logs?environment=sandbox&${query}`)).text).map((row) => textOf(row))
    expect(await only("status=401")).toEqual([expect.stringContaining("/api/v1/balances?currency=USD")])
    expect((await only("status=4xx")).length).toBe(3)
    expect((await page("/dashboard/logs?environment=sandbox&status=5xx")).words).toContain("No requests match.")
    // A class the form does not offer, asked for by link, is applied and shown as chosen.
    const successes = await page("/dashboard/logs?environment=sandbox&status=2xx")
    expect(rows(successes.text).map((row) => textOf(row))).toEqual([expect.stringContaining("/api/v1/site-info")])
    expect(successes.text).toContain('<option value="2xx" selected>2xx</option>')
    expect(await only("path=%2Fapi%2Fv1%2Fsite")).toEqual([expect.stringContaining("/api/v1/site-info")])
    expect((await page("/dashboard/logs?environment=sandbox&to=2000-01-01")).words).toContain("No requests match.")
    expect((await only("from=2000-01-01+00%3A00&to=2999-12-31T23%3A59")).length).toBe(4)
    const badTime = await page("/dashboard/logs?environment=sandbox&from=yesterday")
    expect(badTime.status).toBe(400)
    expect(badTime.words).toContain("From must be a UTC time such as 2030-01-31 09:30, or a date.")
    const refused = await page("/dashboard/logs?environment=sandbox&status=abc")
    expect(refused.status).toBe(400)
    expect(refused.words).toContain("The status must be a status code such as 401")
    expect(refused.text).toContain('role="alert"')
  })

  it("shows an entry's redacted bodies and its error; for a refused signature the string the server signed and the likely cause", async () => {
    const [refusedLink, invalidLink] = entryLinks((await page("/dashboard/logs?environment=sandbox&status=4xx")).text)
    const invalid = await page(invalidLink!)
    expect(invalid.status).toBe(200)
    expect(invalid.words).toContain("Error VALIDATION_FAILED")
    expect(invalid.words).toContain("payment_amount")
    expect(invalid.words).toContain("[REDACTED]")
    expect(invalid.words).not.toContain("4242424242424242")
    expect(invalid.words).not.toContain("Likely cause")
    const refused = await page(refusedLink!)
    expect(refused.status).toBe(200)
    expect(refused.words).toMatch(/INVALID_CREDENTIALS\s*: /)
    expect(refused.words).toMatch(/Likely cause: query_string_missing The signature matches the path without its query string/)
    // The body stands as its SHA-256: here the empty body's.
    expect(refused.words).toMatch(/\d{10}\.GET\.\/api\/v1\/balances\?currency=USD\.e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855/)
    expect(refused.words).not.toContain(shop.credentials.client_secret)
    // Another merchant's entry is not there: 404, never 403.
    expect((await page(refusedLink!, { merchant: rival.id })).status).toBe(404)
    expect((await page("/dashboard/logs/rl_0123456789abcdef0123456789abcdef?environment=sandbox")).status).toBe(404)
  })

  it("pages by cursor, with a way back to the first page", async () => {
    for (let i = 0; i <= 20; i++) expect((await dash.api(shop.credentials, "GET", `/api/v1/verify-payment/SANDBOX_PAGE_${i}`)).status).toBe(404)
    await expect.poll(async () => (await page("/dashboard/logs?environment=sandbox&path=%2Fapi%2Fv1%2Fverify-payment%2FSANDBOX_PAGE_")).text.includes("Next page"), { timeout: 10_000 }).toBe(true)
    const first = await page("/dashboard/logs?environment=sandbox")
    const next = /href="([^"]*cursor=[^"]*)"[^>]*>Next page/.exec(first.text)?.[1]?.replace(/&amp;/g, "&")
    expect(next).toBeDefined()
    const second = await page(next!)
    expect(second.status).toBe(200)
    expect(second.words).toContain("First page")
    const seen = new Set([...entryLinks(first.text), ...entryLinks(second.text)])
    expect(seen.size).toBe(entryLinks(first.text).length + entryLinks(second.text).length)
  })
})
