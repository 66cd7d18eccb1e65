import { createServer, type Server } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { formTokenOf, signedApiCall } from "../../testing/http/platform-dashboard.js"
import { createMerchantPayments, type IssuedCredentials, type MerchantPayments } from "../../hosts/embedding/index.js"
import { until } from "./until.js"

/**
 * Every field a merchant, its customers or a webhook receiver controls, filled with markup, and every
 * dashboard page that shows one read back: the text is there, escaped, and none of it became markup.
 * The receiver is real (loopback) and answers with markup in its body and headers.
 */

// Each payload carries its own marker, so an assertion names the field that leaked.
const MERCHANT = `Tea & <b>Cakes</b> 'Shop'`
const USER = `<i>ops</i>'"@platform`
const REFERENCE = `<script>alert("ref")</script>'&`
const CUSTOMER = `"><img src=x onerror=alert('name')>`
const EMAIL = `o'neil&x=1@shop.example`
const DESCRIPTION = `</td></tr><script>alert('desc')</script><a href="javascript:alert(1)">x</a>`
const REASON = `"><svg onload=alert('reason')>`
const SUBSCRIPTION_REFERENCE = `sub'"><script>alert('sub')</script>`
const MEMO = `<iframe src="javascript:alert('memo')">`
const FILTER = `"><script>alert('filter')</script>`
/** The receiver's path keeps its `'` once the URL is normalised (`"`, `<` and `>` are percent-encoded; a URL has no spaces). */
const HOOK_PATH = `/ipn/q'XSS"><img/src=x/onerror=alert('ipn')>`
const RECEIVER_BODY = `<script>alert('body')</script>`
const RECEIVER_HEADER = `<script>alert('header')</script>`

const escaped = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;")

/** What must never be found raw on a page: the payloads, and the pieces of them that would be markup. */
const NEVER_RAW = [
  MERCHANT, USER, REFERENCE, CUSTOMER, EMAIL, DESCRIPTION, REASON, SUBSCRIPTION_REFERENCE, MEMO, FILTER, RECEIVER_BODY, RECEIVER_HEADER,
  // The overview draws its own chart (<svg role="img">), so what must never appear is an svg opened with a handler.
  "<b>Cakes", "<i>ops", "<img src=x", "<img/src", "<svg onload", "<iframe", "q'XSS", "alert('", "alert(\""
]

/** The page is whole, shows each expected payload escaped, and holds none raw: its one script is the kit's own file. */
const expectSafe = (page: string, path: string, shown: ReadonlyArray<string>) => {
  for (const payload of NEVER_RAW) expect(page.includes(payload), `${path} shows ${payload} unescaped`).toBe(false)
  expect(page.match(/<script\b/gi)?.length ?? 0, `${path}: scripts`).toBe(1)
  expect(page).toMatch(/<script src="[^"]*\/dashboard\/assets\/dashboard\.js" defer><\/script>/)
  // Escaped text cannot open a tag, so every tag is the page's own: none has a handler or a script URL.
  const tags = page.match(/<[a-zA-Z][^>]*>/g) ?? []
  expect(tags.filter((tag) => /\son[a-z]+=/i.test(tag.replace(/"[^"]*"/g, "\"\""))), `${path}: event handler attributes`).toEqual([])
  expect(tags.filter((tag) => /\s(href|src|action)="\s*javascript:/i.test(tag)), `${path}: script URLs`).toEqual([])
  for (const text of shown) expect(page, `${path} shows ${text}`).toContain(escaped(text))
}

export interface HostileSetup {
  /** The store, as `createMerchantPayments`' `database` takes it. */
  readonly database: () => string
  /** Where the kit is mounted on the platform's server ("" at the root). */
  readonly basePath: string
}

export const dashboardHostileSuite = (name: string, setup: HostileSetup) =>
  describe(`dashboard pages with hostile input: ${name}`, () => {
    let receiver: Server
    let server: Server
    let payments: MerchantPayments
    let origin = ""
    let hook = ""
    let merchantId = 0
    let credentials: IssuedCredentials
    let trxId = ""
    let subscriptionId = ""

    const base = () => `${origin}${setup.basePath}`
    const visitor = { "x-test-merchant": () => String(merchantId) }
    const get = async (path: string) => {
      const response = await fetch(`${base()}${path}`, { headers: { "x-test-merchant": visitor["x-test-merchant"]() }, redirect: "manual" })
      return { status: response.status, text: await response.text() }
    }
    const post = async (path: string, fields: Readonly<Record<string, string>>) => {
      const response = await fetch(`${base()}${path}`, {
        method: "POST",
        headers: { "x-test-merchant": visitor["x-test-merchant"](), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
        redirect: "manual"
      })
      return { status: response.status, location: response.headers.get("location"), text: await response.text() }
    }
    const api = async (method: string, path: string, body: unknown) => {
      const answer = await signedApiCall(origin, credentials, method, `${setup.basePath}${path}`, body)
      expect(answer.status, JSON.stringify(answer.json)).toBeLessThan(300)
      return answer.json as { readonly data?: { readonly id?: string }; readonly info?: { readonly trx_id?: string } }
    }

    beforeAll(async () => {
      receiver = createServer((request, response) => {
        request.resume().on("end", () => response.writeHead(500, { "content-type": "text/html", "x-hostile": RECEIVER_HEADER }).end(RECEIVER_BODY))
      })
      await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
      hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}${HOOK_PATH}`
      server = createServer((request, response) => payments.handler(request, response))
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
      payments = await createMerchantPayments({
        database: setup.database(),
        masterKey: "55".repeat(32),
        baseUrl: origin,
        ...(setup.basePath === "" ? {} : { basePath: setup.basePath }),
        logging: false,
        webhooks: { allowPrivateTargets: true, pollIntervalMillis: 50, retryDelaysMillis: [] },
        dashboard: {
          authenticate: (request) => {
            const merchant = request.headers["x-test-merchant"]
            return typeof merchant === "string" ? { merchantId: Number(merchant), userId: USER, role: "owner" } : null
          },
          signInUrl: "/login"
        }
      })

      const merchant = await payments.admin.merchants.create({ name: MERCHANT, status: "approved" })
      merchantId = merchant.id
      await payments.admin.currencies.replace(merchant.id, ["USD"])
      const wallet = await payments.admin.wallets.create(merchant.id, { currency_code: "USD", environment: "sandbox" })
      await payments.admin.gateways.create({ plugin: "sandbox", name: "Test card", currency_code: "USD", method: `hostile${merchant.id}` })
      credentials = await payments.admin.credentials.issue(merchant.id, "sandbox")
      await payments.admin.wallets.adjust(wallet.id, { amount: 5, reason: MEMO })

      const started = await api("POST", "/api/v1/initiate-payment", {
        payment_amount: 100, currency_code: "USD", ref_trx: REFERENCE, description: DESCRIPTION, customer_name: CUSTOMER, customer_email: EMAIL,
        success_redirect: "https://shop.example/ok'\"><script>alert('ok')</script>", cancel_redirect: "https://shop.example/no'<b>", ipn_url: hook
      })
      trxId = started.info!.trx_id!
      await api("POST", `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome: "success" })
      await api("POST", "/api/v1/refund-payment", { trx_id: trxId, amount: 10, reason: REASON })
      const subscription = await api("POST", "/api/v1/subscriptions", {
        payment_amount: "9.99", currency_code: "USD", external_reference: SUBSCRIPTION_REFERENCE, billing_cycle: "monthly",
        customer_email: EMAIL, customer_name: CUSTOMER, description: DESCRIPTION,
        success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel", ipn_url: hook
      })
      subscriptionId = subscription.data!.id!
      // The receiver refuses every event: wait until each has used up its one attempt.
      await until(async () => ((await get(`/dashboard/payments/${trxId}?environment=sandbox`)).text.match(/HTTP 500/g) ?? []).length >= 2, 20_000, "the receiver's refusals")
    }, 60_000)

    afterAll(async () => {
      await payments?.close()
      await new Promise((resolve) => server?.close(resolve))
      await new Promise((resolve) => receiver?.close(resolve))
    })

    const page = async (path: string, shown: ReadonlyArray<string>, status = 200) => {
      const answer = await get(path)
      expect(answer.status, `${path}: ${answer.text.slice(0, 300)}`).toBe(status)
      expectSafe(answer.text, path, [MERCHANT, USER, ...shown])
      return answer.text
    }

    it("the payments list and a filter's echo", async () => {
      await page("/dashboard/payments?environment=sandbox", [REFERENCE])
      await page(`/dashboard/payments?environment=sandbox&reference=${encodeURIComponent(FILTER)}`, [FILTER])
    })

    it("a payment's page: reference, customer, description, refund reason, the webhook target and its refusal", async () => {
      const detail = await page(`/dashboard/payments/${trxId}?environment=sandbox`, [REFERENCE, DESCRIPTION, CUSTOMER, EMAIL, REASON])
      expect(detail).toContain(`/ipn/q&#39;XSS%22%3E%3Cimg/src=x/onerror=alert(&#39;ipn&#39;)%3E`)
      expect(detail).toContain("HTTP 500")
    })

    it("the refund review says the reason back escaped", async () => {
      const token = formTokenOf((await get(`/dashboard/payments/${trxId}?environment=sandbox`)).text)
      const review = await post(`/dashboard/payments/${trxId}/refund/review`, { csrf_token: token, environment: "sandbox", idempotency_key: "hostile-review", amount: "1", reason: REASON })
      expect(review.status, review.text.slice(0, 300)).toBe(200)
      expectSafe(review.text, "refund review", [MERCHANT, REASON, REFERENCE])
    })

    it("the webhooks list, a filter's echo, and the attempt view of a receiver that answered with markup", async () => {
      const list = await page("/dashboard/webhooks?environment=sandbox", [])
      expect(list).toContain("q&#39;XSS")
      await page(`/dashboard/webhooks?environment=sandbox&type=${encodeURIComponent(FILTER)}`, [FILTER])
      const eventId = /\/dashboard\/webhooks\/([0-9a-f-]{36})\?/.exec(list)![1]!
      const attempts = await page(`/dashboard/webhooks/${eventId}?environment=sandbox`, [])
      expect(attempts).toContain("q&#39;XSS")
      expect(attempts).toContain("HTTP 500")
      // Its body is the signed JSON, references and all, shown as text; the receiver's answer is not shown.
      expect(attempts).toMatch(/<pre class="payload">[^<]*&lt;script&gt;alert\(/)
    })

    it("a test event to a hostile address: refused and said back, or sent and listed", async () => {
      const token = formTokenOf((await get("/dashboard/webhooks?environment=sandbox")).text)
      const refused = await post("/dashboard/webhooks/test", { csrf_token: token, environment: "sandbox", url: `javascript:alert('test')${FILTER}` })
      expect(refused.status).toBe(422)
      expectSafe(refused.text, "refused test event", [MERCHANT, USER, `javascript:alert('test')${FILTER}`])
      const sent = await post("/dashboard/webhooks/test", { csrf_token: token, environment: "sandbox", url: hook })
      expect(sent.status, sent.text.slice(0, 300)).toBe(303)
    })

    it("subscriptions: the list and one subscription", async () => {
      await page("/dashboard/subscriptions?environment=sandbox", [SUBSCRIPTION_REFERENCE, EMAIL])
      await page(`/dashboard/subscriptions/${subscriptionId}?environment=sandbox`, [SUBSCRIPTION_REFERENCE, CUSTOMER, EMAIL, DESCRIPTION, "q'XSS"])
    })

    it("statements, the overview, the developers page and the audit log", async () => {
      await page("/dashboard/statements?environment=sandbox", [MEMO])
      const overview = await page("/dashboard?environment=sandbox", [])
      expect(overview).toContain("used up every attempt")
      await page("/dashboard/developers?environment=sandbox", [])
      await page("/dashboard/api-config?environment=sandbox", [])
      await page("/dashboard/audit?environment=sandbox", [USER])
    })

    it("a page that does not exist", async () => {
      const answer = await get(`/dashboard/${encodeURIComponent(FILTER)}?environment=sandbox`)
      expect(answer.status).toBe(404)
      expectSafe(answer.text, "no such page", [])
    })
  })
