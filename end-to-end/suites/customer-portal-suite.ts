import { HttpApp } from "@effect/platform"
import { Effect, LogLevel, Logger, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../../adapters/http/app.js"
import { loggedPath } from "../../adapters/http/request/request-log.js"
import { pressButton } from "../../conformance/gateway/html-forms.js"
import { createGateway } from "../../core/gateways/gateway-admin.js"
import { createMerchant, issueCredentials, replaceCurrencies } from "../../core/merchants/merchant-admin.js"
import type { Environment } from "../../core/shared/environment.js"
import { fromMillis } from "../../core/shared/instant.js"
import { makeManualClock } from "../../core/shared/manual-clock.js"
import { defaultSiteSettings } from "../../core/settings/site-settings.js"
import { BillingSettingsRepository, defaultBillingSettings } from "../../core/subscriptions/billing-settings.js"
import type { MerchantId } from "../../core/shared/ids.js"
import { createWallet } from "../../core/wallets/wallet-admin.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { signedRequest, type TestCaller } from "../../testing/http/signed-client.js"
import { testKitConfig } from "./test-kit-config.js"

type Json = Record<string, any>
const START = Date.UTC(2030, 4, 1, 12, 0, 0)
const BASE = "https://pay.example"

/**
 * Issue 36 item 5 through the HTTP app: POST /api/v1/customer-portal-sessions (201 shape, validation,
 * environment), the link's single use and hour, the session cookie, and that one customer's portal
 * session never reads or changes another's subscription or invoice (404, alike for unknown ids).
 */
export const customerPortalSuite = (name: string, store: () => StoreConfig) =>
  describe(`customer portal: ${name}`, () => {
    const clock = makeManualClock(START)
    let runtime: ManagedRuntime.ManagedRuntime<any, any>
    let handler: (request: Request) => Promise<Response>
    let sandbox: TestCaller
    let production: TestCaller
    let merchantId: MerchantId

    beforeAll(async () => {
      runtime = ManagedRuntime.make(kitLayer(testKitConfig(store(), {
        manualClock: clock,
        settings: { ...defaultSiteSettings, rateLimitPerMinute: 1_000_000 },
        webhooks: { timeoutMs: 2_000, retryDelaysMillis: [], allowPrivateTargets: true, pollIntervalMillis: 1_000 }
      })))
      handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp.pipe(Effect.withClock(clock.clock), Logger.withMinimumLogLevel(LogLevel.Warning)))
      const callers = await runtime.runPromise(Effect.gen(function*() {
        const merchant = yield* createMerchant({ name: "Portal shop", status: "approved" })
        yield* replaceCurrencies(merchant.id, ["USD"])
        yield* createWallet(merchant.id, "USD", "sandbox")
        yield* createGateway({ plugin: "sandbox", name: "Card", currencyCode: "USD", method: `portal${merchant.id}`, type: "automatic", active: true })
        const caller = (environment: Environment) =>
          Effect.map(issueCredentials(merchant.id, environment), (issued) => ({
            environment, merchantKey: issued.merchantKey, apiKey: issued.apiKey, clientSecret: issued.clientSecret
          }))
        return { id: merchant.id, sandbox: yield* caller("sandbox"), production: yield* caller("production") }
      }))
      merchantId = callers.id
      sandbox = callers.sandbox
      production = callers.production
    })
    afterAll(() => runtime.dispose())

    const call = async (caller: TestCaller, method: string, path: string, body?: unknown) => {
      const response = await handler(signedRequest(caller, method, path, body === undefined ? "" : JSON.stringify(body)))
      return { status: response.status, json: (await response.json()) as Json }
    }
    const portalLink = async (email: string, caller: TestCaller = sandbox) => {
      const made = await call(caller, "POST", "/api/v1/customer-portal-sessions", { customer_email: email, return_url: "https://shop.example/account" })
      expect(made.status).toBe(201)
      return made.json["data"] as { url: string; expires_at: string }
    }
    const subscribe = async (email: string, reference: string) => {
      const made = await call(sandbox, "POST", "/api/v1/subscriptions", {
        external_reference: reference, billing_cycle: "monthly", payment_amount: "19.99", currency_code: "USD", customer_email: email,
        description: `Plan ${reference}`, success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel",
        ipn_url: "http://127.0.0.1:9/ipn"
      })
      expect(made.status).toBe(201)
      return made.json["data"] as Json
    }
    const pay = async (trxId: string) => {
      const paid = await call(sandbox, "POST", `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome: "success" })
      expect([paid.status, paid.json["status"]]).toEqual([200, "success"])
    }
    /** A browser's visit: the path under the public base, with the portal cookie when given. */
    const visit = (url: string, options: { cookie?: string; form?: Record<string, string> } = {}) =>
      handler(new Request(`http://kit.test${url.startsWith(BASE) ? url.slice(BASE.length) : url}`, {
        method: options.form === undefined ? "GET" : "POST",
        redirect: "manual",
        headers: {
          ...(options.cookie === undefined ? {} : { cookie: options.cookie }),
          ...(options.form === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" })
        },
        ...(options.form === undefined ? {} : { body: new URLSearchParams(options.form).toString() })
      }))
    /** Opens a link as a customer's browser would: the cookie it sets. */
    const open = async (url: string) => {
      const response = await visit(url)
      expect(response.status).toBe(303)
      const cookie = response.headers.get("set-cookie")!
      return { response, cookie: cookie.split(";")[0]!, setCookie: cookie }
    }
    const portalHtml = async (cookie: string, path = "/customer-portal") => {
      const response = await visit(path, { cookie })
      return { status: response.status, html: await response.text() }
    }
    const csrfOf = (html: string) => /name="csrf_token" value="([^"]+)"/.exec(html)![1]!
    /** The customer's hosted checkout: choose the sandbox gateway, then pay with the test card `card` (the gateway saves it). */
    const payWithCard = async (paymentUrl: string, card: string) => {
      const form = (fields: Record<string, string>) => ({
        method: "POST", redirect: "manual" as const, headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString()
      })
      const page = await (await handler(new Request(paymentUrl))).text()
      const gatewayId = /name="gateway_id" value="(\d+)"/.exec(page)?.[1]
      expect(gatewayId, page).toBeDefined()
      const chosen = await (await handler(new Request(`${paymentUrl}/pay`, form({ gateway_id: gatewayId! })))).text()
      const button = pressButton(chosen, `pay-card-${card}`)
      expect(button?.action, chosen).toBeDefined()
      expect((await handler(new Request(button!.action!, form(button!.fields)))).status).toBe(303)
    }

    it("answers 201 with a single-use link that expires in an hour", async () => {
      const made = await call(sandbox, "POST", "/api/v1/customer-portal-sessions", { customer_email: "a@x.example", return_url: "https://shop.example/account" })
      expect(made.status).toBe(201)
      expect(Object.keys(made.json["data"]).sort()).toEqual(["expires_at", "url"])
      expect(made.json["data"]["url"]).toMatch(/^https:\/\/pay\.example\/customer-portal\/session\/[A-Za-z0-9_-]{43}$/)
      expect(made.json["data"]["expires_at"]).toBe(new Date(START + 3600_000).toISOString().replace(".000Z", ".000000Z"))
      // The token is a bearer secret: the request log never writes it.
      const path = new URL(made.json["data"]["url"]).pathname
      expect(loggedPath(path)).toBe("/customer-portal/session/:token")
    })

    it("refuses missing or malformed fields with 422 and a message naming the field", async () => {
      const cases: ReadonlyArray<[unknown, string]> = [
        [{ return_url: "https://shop.example/account" }, "customer_email"],
        [{ customer_email: "not an email", return_url: "https://shop.example/account" }, "customer_email"],
        [{ customer_email: "a@x.example" }, "return_url"],
        [{ customer_email: "a@x.example", return_url: "javascript:alert(1)" }, "return_url"],
        [{ customer_email: "a@x.example", return_url: "not a url" }, "return_url"],
        [{ customer_email: "a@x.example", return_url: `https://shop.example/${"x".repeat(300)}` }, "return_url"]
      ]
      for (const [body, field] of cases) {
        const answer = await call(sandbox, "POST", "/api/v1/customer-portal-sessions", body)
        expect(answer.status, JSON.stringify(body)).toBe(422)
        expect(answer.json["success"]).toBe(false)
        expect(JSON.stringify(answer.json), JSON.stringify(body)).toContain(field)
        expect(answer.json["message"]).toEqual(expect.any(String))
      }
      // The link is a bearer secret: never stored for Idempotency-Key replay, so a repeat makes a new link.
      const keyed = () => handler(signedRequest(sandbox, "POST", "/api/v1/customer-portal-sessions",
        JSON.stringify({ customer_email: "a@x.example", return_url: "https://shop.example/account" }), { "idempotency-key": "portal-once" }))
      const [one, two] = [await keyed(), await keyed()]
      expect([one.status, two.status, two.headers.get("idempotent-replayed")]).toEqual([201, 201, null])
      expect(((await one.json()) as Json)["data"]["url"]).not.toBe(((await two.json()) as Json)["data"]["url"])
      const unsigned = await handler(new Request("http://kit.test/api/v1/customer-portal-sessions", { method: "POST", body: "{}" }))
      expect(unsigned.status).toBe(401)
    })

    it("the first visit sets a scoped session cookie and drops the token; a second visit is refused with a page", async () => {
      const link = await portalLink("a@x.example")
      const first = await open(link.url)
      expect(first.response.headers.get("location")).toBe(`${BASE}/customer-portal`)
      expect(first.setCookie).toMatch(/^mp_portal=[A-Za-z0-9_-]{43}; Max-Age=3600; Path=\/customer-portal; HttpOnly; Secure; SameSite=Lax/)
      expect(first.cookie).not.toContain(new URL(link.url).pathname.split("/").pop()!)
      expect((await portalHtml(first.cookie)).status).toBe(200)

      const second = await visit(link.url)
      expect(second.status).toBe(410)
      expect(second.headers.get("set-cookie")).toBeNull()
      const page = await second.text()
      expect(page).toContain("This link was already used")
      expect(page).toContain("<a class=\"button\" href=\"https://shop.example/account\">Return to Portal shop</a>")

      // Two visits at once (a double click, a prefetch): one opens the session, the other is refused.
      const raced = await portalLink("a@x.example")
      const pair = await Promise.all([visit(raced.url), visit(raced.url)])
      expect(pair.map((answer) => answer.status).sort()).toEqual([303, 410])

      const unknown = await visit("/customer-portal/session/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
      expect([unknown.status, (await unknown.text()).includes("Link not found")]).toEqual([404, true])
    })

    it("a link unvisited for an hour is refused as expired, and a session ends an hour after its visit", async () => {
      const late = await portalLink("a@x.example")
      const early = await open((await portalLink("a@x.example")).url)
      await runtime.runPromise(clock.advance(3601))
      const expired = await visit(late.url)
      expect(expired.status).toBe(410)
      expect(await expired.text()).toContain("This link has expired")
      const ended = await portalHtml(early.cookie)
      expect(ended.status).toBe(401)
      expect(ended.html).toContain("Your session has ended")
      expect((await portalHtml("mp_portal=nonsense-but-shaped-right-0123456789")).status).toBe(401)
      expect((await visit("/customer-portal")).status).toBe(401)
    })

    it("shows only this customer's subscriptions in this environment; another's are 404 to view, pay or cancel", async () => {
      const mine = await subscribe("a@x.example", "a-plan")
      const theirs = await subscribe("b@x.example", "b-plan")
      const cased = await subscribe("A@X.example", "a-cased")
      const a = await open((await portalLink("a@x.example")).url)
      const { html, status } = await portalHtml(a.cookie)
      expect(status).toBe(200)
      expect(html).toContain("Plan a-plan")
      expect(html).toContain("Plan a-cased")
      expect(html).not.toContain("Plan b-plan")
      expect(html).toContain("19.99 USD")
      expect(html).toContain("Test mode")
      expect(html).toContain("Return to Portal shop")
      const csrf = csrfOf(html)

      expect((await portalHtml(a.cookie, `/customer-portal/subscriptions/${mine["id"]}`)).status).toBe(200)
      expect((await portalHtml(a.cookie, `/customer-portal/subscriptions/${cased["id"]}`)).status).toBe(200)
      const view = await portalHtml(a.cookie, `/customer-portal/subscriptions/${theirs["id"]}`)
      expect(view.status).toBe(404)
      expect(view.html).not.toContain("b-plan")
      expect((await portalHtml(a.cookie, "/customer-portal/subscriptions/no-such-id")).status).toBe(404)
      const payTheirs = await visit(`/customer-portal/invoices/${theirs["latest_invoice"]["id"]}/pay`, { cookie: a.cookie, form: { csrf_token: csrf } })
      expect(payTheirs.status).toBe(404)
      const cancelTheirs = await visit(`/customer-portal/subscriptions/${theirs["id"]}/cancel`, { cookie: a.cookie, form: { csrf_token: csrf } })
      expect(cancelTheirs.status).toBe(404)
      // Documents too: the customer's own invoice PDF is linked and served, another's reads as unknown.
      const myPdf = `/customer-portal/invoices/${mine["latest_invoice"]["id"]}/pdf`
      expect(html).toContain(myPdf)
      const pdf = await visit(myPdf, { cookie: a.cookie })
      expect([pdf.status, pdf.headers.get("content-type")]).toEqual([200, "application/pdf"])
      expect(new TextDecoder().decode(new Uint8Array(await pdf.arrayBuffer()).slice(0, 5))).toBe("%PDF-")
      expect((await visit(`/customer-portal/invoices/${theirs["latest_invoice"]["id"]}/pdf`, { cookie: a.cookie })).status).toBe(404)
      expect((await visit(`${myPdf}?kind=receipt`, { cookie: a.cookie })).status).toBe(404)
      expect((await visit(myPdf)).status).toBe(401)
      const afterwards = await call(sandbox, "GET", `/api/v1/subscriptions/${theirs["id"]}`)
      expect([afterwards.json["data"]["status"], afterwards.json["data"]["cancel_at_period_end"]]).toEqual(["pending", false])

      // The same customer's portal in production sees none of the sandbox subscriptions.
      const live = await open((await portalLink("a@x.example", production)).url)
      const liveHtml = await portalHtml(live.cookie)
      expect(liveHtml.html).toContain("You have no subscriptions with this merchant.")
      expect(liveHtml.html).not.toContain("Test mode")
      expect((await portalHtml(live.cookie, `/customer-portal/subscriptions/${mine["id"]}`)).status).toBe(404)
    })

    it("pays an open invoice through its checkout, then cancels at period end; forms need the session's token", async () => {
      const plan = await subscribe("c@x.example", "c-plan")
      const c = await open((await portalLink("c@x.example")).url)
      const before = await portalHtml(c.cookie)
      expect(before.html).toContain("Awaiting first payment")
      expect(before.html).toContain(`/customer-portal/invoices/${plan["latest_invoice"]["id"]}/pay`)
      expect(before.html).not.toContain("Cancel at period end")

      const forged = await visit(`/customer-portal/invoices/${plan["latest_invoice"]["id"]}/pay`, { cookie: c.cookie, form: { csrf_token: "forged" } })
      expect(forged.status).toBe(403)
      const noCookie = await visit(`/customer-portal/invoices/${plan["latest_invoice"]["id"]}/pay`, { form: { csrf_token: csrfOf(before.html) } })
      expect(noCookie.status).toBe(401)

      const paying = await visit(`/customer-portal/invoices/${plan["latest_invoice"]["id"]}/pay`, { cookie: c.cookie, form: { csrf_token: csrfOf(before.html) } })
      expect(paying.status).toBe(303)
      expect(paying.headers.get("location")).toBe(plan["latest_invoice"]["payment_url"])
      await pay(plan["latest_invoice"]["trx_id"])

      const paid = await portalHtml(c.cookie)
      expect(paid.html).toContain(">Active<")
      expect(paid.html).toContain(">Paid<")
      expect(paid.html).not.toContain("/pay\"")
      // A paid invoice links its receipt as well, and the receipt is served.
      const receipt = `/customer-portal/invoices/${plan["latest_invoice"]["id"]}/pdf?kind=receipt`
      expect(paid.html).toContain(receipt)
      expect((await visit(receipt, { cookie: c.cookie })).status).toBe(200)
      // Nothing left to pay: back to the portal, which says so.
      const again = await visit(`/customer-portal/invoices/${plan["latest_invoice"]["id"]}/pay`, { cookie: c.cookie, form: { csrf_token: csrfOf(paid.html) } })
      expect([again.status, again.headers.get("location")]).toEqual([303, `${BASE}/customer-portal?notice=nothingToPay`])

      const cancelled = await visit(`/customer-portal/subscriptions/${plan["id"]}/cancel`, { cookie: c.cookie, form: { csrf_token: csrfOf(paid.html) } })
      expect([cancelled.status, cancelled.headers.get("location")]).toEqual([303, `${BASE}/customer-portal?notice=cancelled`])
      const after = await call(sandbox, "GET", `/api/v1/subscriptions/${plan["id"]}`)
      expect([after.json["data"]["status"], after.json["data"]["cancel_at_period_end"]]).toEqual(["active", true])
      const ending = await portalHtml(c.cookie, "/customer-portal?notice=cancelled")
      expect(ending.html).toContain("Your subscription will end at the end of the current period.")
      expect(ending.html).toContain("Active, ends on 1 June 2030")
      expect(ending.html).not.toContain("data-testid=\"cancel-subscription\"")
    })

    it("when the merchant's portal_cancellation is off, the portal offers no cancel and refuses one", async () => {
      const plan = await subscribe("e@x.example", "e-plan")
      await pay(plan["latest_invoice"]["trx_id"])
      const setCancellation = (allowed: boolean) =>
        runtime.runPromise(Effect.flatMap(BillingSettingsRepository, (repo) =>
          repo.put(merchantId, { ...defaultBillingSettings, portalCancellation: allowed }, fromMillis(START))))
      const e = await open((await portalLink("e@x.example")).url)
      // The form as it was offered a moment before the merchant turned cancellation off.
      const offered = await portalHtml(e.cookie)
      expect(offered.html).toContain("Cancel at period end")
      await setCancellation(false)
      try {
        const page = await portalHtml(e.cookie)
        expect(page.html).toContain(">Active<")
        expect(page.html).not.toContain("Cancel at period end")
        const refused = await visit(`/customer-portal/subscriptions/${plan["id"]}/cancel`, { cookie: e.cookie, form: { csrf_token: csrfOf(offered.html) } })
        expect([refused.status, refused.headers.get("location")]).toEqual([303, `${BASE}/customer-portal?notice=cancellationOff`])
        expect((await call(sandbox, "GET", `/api/v1/subscriptions/${plan["id"]}`)).json["data"]["cancel_at_period_end"]).toBe(false)
        expect((await portalHtml(e.cookie, "/customer-portal?notice=cancellationOff")).html).toContain("Contact the merchant to cancel this subscription.")
      } finally {
        await setCancellation(true)
      }
    })

    it("writes what the merchant wrote as text, never as markup", async () => {
      const made = await call(sandbox, "POST", "/api/v1/subscriptions", {
        external_reference: "hostile", billing_cycle: "weekly", payment_amount: "5.00", currency_code: "USD", customer_email: "f@x.example",
        description: "<img src=x onerror=alert(1)> \"quoted\"", success_redirect: "https://shop.example/ok",
        cancel_redirect: "https://shop.example/cancel", ipn_url: "http://127.0.0.1:9/ipn"
      })
      expect(made.status).toBe(201)
      const f = await open((await portalLink("f@x.example")).url)
      const { html } = await portalHtml(f.cookie)
      expect(html).toContain("&lt;img src=x onerror=alert(1)&gt; &quot;quoted&quot;")
      expect(html).not.toContain("<img")
      expect(html).toContain("5.00 USD")
      expect(html).toContain("per week")
    })

    it("speaks the customer's language, chosen as checkout chooses it", async () => {
      await subscribe("d@x.example", "d-plan")
      const link = await portalLink("d@x.example")
      const first = await visit(`${link.url}?locale=fr`)
      expect(first.headers.get("location")).toBe(`${BASE}/customer-portal?locale=fr`)
      const cookie = first.headers.get("set-cookie")!.split(";")[0]!
      const french = await portalHtml(cookie, "/customer-portal?locale=fr")
      expect(french.html).toContain("<html lang=\"fr\" dir=\"ltr\">")
      expect(french.html).toContain("Vos abonnements")
      expect(french.html).toContain("19,99 USD")
      const arabic = await handler(new Request("http://kit.test/customer-portal", { headers: { cookie, "accept-language": "ar-EG,ar;q=0.9" } }))
      expect(await arabic.text()).toContain("<html lang=\"ar\" dir=\"rtl\">")
    })

    // Last: it moves the clock a month on to renew.
    it("shows the saved card; Update payment method offers a setup page when nothing is to pay, and sends to the open invoice's checkout when there is", async () => {
      const plan = await subscribe("g@x.example", "g-plan")
      const unsaved = await open((await portalLink("g@x.example")).url)
      expect((await portalHtml(unsaved.cookie)).html).not.toContain("update-payment-method")
      await payWithCard(plan["latest_invoice"]["payment_url"], "hard_decline")
      const g = await open((await portalLink("g@x.example")).url)
      const page = await portalHtml(g.cookie)
      expect(page.html).toContain("Visa ending in 9987, expires 12/2034")
      const update = `/customer-portal/subscriptions/${plan["id"]}/payment-method`
      expect(page.html).toContain(`action="${BASE}${update}"`)
      const french = await portalHtml(g.cookie, "/customer-portal?locale=fr")
      expect(french.html).toContain("Visa se terminant par 9987, expire 12/2034")
      expect(french.html).toContain(`action="${BASE}${update}?locale=fr"`)

      // Paid for the period: nothing to pay, so the sandbox gateway's setup-only page is offered (the next test completes one).
      expect((await visit(update, { cookie: g.cookie, form: { csrf_token: "forged" } })).status).toBe(403)
      const later = await visit(update, { cookie: g.cookie, form: { csrf_token: csrfOf(page.html) } })
      expect(later.status).toBe(200)
      expect(await later.text()).toContain("Replace your payment method")
      // A gateway without a setup flow leaves the customer this notice instead.
      expect((await portalHtml(g.cookie, "/customer-portal?notice=methodAtNextPayment")).html)
        .toContain("There is nothing to pay now: you can change your card at your next payment, when the next invoice is issued.")
      expect((await portalHtml(g.cookie, "/customer-portal?locale=fr&notice=methodAtNextPayment")).html)
        .toContain("vous pourrez changer de carte lors de votre prochain paiement")
      expect((await portalHtml(g.cookie, "/customer-portal?locale=ar&notice=methodAtNextPayment")).html).toContain("يمكنك تغيير بطاقتك عند دفعتك التالية")

      // Another customer's subscription reads as unknown, and nothing happens to it.
      await subscribe("h@x.example", "h-plan")
      const h = await open((await portalLink("h@x.example")).url)
      const hHtml = (await portalHtml(h.cookie)).html
      expect((await visit(update, { cookie: h.cookie, form: { csrf_token: csrfOf(hHtml) } })).status).toBe(404)
      expect((await visit("/customer-portal/subscriptions/no-such-id/payment-method", { cookie: h.cookie, form: { csrf_token: csrfOf(hHtml) } })).status).toBe(404)

      // The renewal's charge on the lost card is declined: past_due with an open invoice, whose checkout the update sends to.
      const first = (await call(sandbox, "GET", `/api/v1/subscriptions/${plan["id"]}`)).json["data"] as Json
      await runtime.runPromise(clock.advance(Math.ceil((Date.parse(first["current_period_end"]) - Number(clock.unsafeNow() / 1000n)) / 1000) + 1))
      const ran = await handler(new Request("http://kit.test/admin/v1/scheduler/run", { method: "POST", headers: { authorization: "Bearer admin-token" } }))
      expect(ran.status).toBe(200)
      const due = (await call(sandbox, "GET", `/api/v1/subscriptions/${plan["id"]}`)).json["data"] as Json
      expect([due["status"], due["latest_invoice"]["status"]]).toEqual(["past_due", "pending"])
      const g2 = await open((await portalLink("g@x.example")).url)
      const duePage = await portalHtml(g2.cookie)
      const sent = await visit(`${update}?locale=fr`, { cookie: g2.cookie, form: { csrf_token: csrfOf(duePage.html) } })
      expect([sent.status, sent.headers.get("location")]).toEqual([303, `${due["latest_invoice"]["payment_url"]}?locale=fr`])
      await payWithCard(due["latest_invoice"]["payment_url"], "success")
      const replaced = (await call(sandbox, "GET", `/api/v1/subscriptions/${plan["id"]}`)).json["data"] as Json
      expect(replaced).toMatchObject({ status: "active", saved_payment_method: { last4: "4242" }, latest_invoice: { status: "paid" } })
      expect((await portalHtml(g2.cookie)).html).toContain("Visa ending in 4242, expires")
    })

    // Moves the clock on again: a renewal after the method was replaced with nothing to pay.
    it("replaces the saved method through a setup-only session with nothing to pay; the next renewal charges the new card", async () => {
      const plan = await subscribe("k@x.example", "k-plan")
      await payWithCard(plan["latest_invoice"]["payment_url"], "decline")
      const update = `/customer-portal/subscriptions/${plan["id"]}/payment-method`
      const k = await open((await portalLink("k@x.example")).url)
      const home = await portalHtml(k.cookie)
      expect(home.html).toContain("Visa ending in 9995, expires 12/2034")
      /** The setup page the update answers with nothing to pay: the sandbox's test cards, in the page's language. */
      const setupPage = async (locale = "") => {
        const answer = await visit(`${update}${locale}`, { cookie: k.cookie, form: { csrf_token: csrfOf(home.html) } })
        expect(answer.status).toBe(200)
        return answer.text()
      }
      const french = await setupPage("?locale=fr")
      expect(french).toContain("Remplacer votre moyen de paiement")
      expect(french).toContain("est débité maintenant")
      expect(french).toContain("Mode test")
      expect(pressButton(french, "save-card-declines_twice")?.action).toMatch(/\/customer-portal\/method-setups\/[A-Za-z0-9_-]+\/return\?locale=fr$/)
      /** Presses a button of the setup form as the customer's browser would, with the given cookie. */
      const press = (page: string, testId: string, cookie: string | null = k.cookie, edit: Record<string, string> = {}) => {
        const button = pressButton(page, testId)
        expect(button?.action, page).toBeDefined()
        return visit(button!.action!, { ...(cookie === null ? {} : { cookie }), form: { ...button!.fields, ...edit } })
      }
      const methodOf = async () => ((await call(sandbox, "GET", `/api/v1/subscriptions/${plan["id"]}`)).json["data"] as Json)["saved_payment_method"]

      // Giving up, or a form edited to save another card than it was signed for, changes nothing.
      const cancelled = await press(await setupPage(), "cancel-setup")
      expect([cancelled.status, cancelled.headers.get("location")]).toEqual([303, `${BASE}/customer-portal?notice=methodUnchanged`])
      const forged = await press(await setupPage(), "save-card-success", k.cookie, { card: "hard_decline" })
      expect(forged.headers.get("location")).toBe(`${BASE}/customer-portal?notice=methodUnchanged`)
      expect(await methodOf()).toMatchObject({ last4: "9995" })

      // Another customer's session, or none, never reaches this customer's setup.
      const page = await setupPage()
      await subscribe("m@x.example", "m-plan")
      const m = await open((await portalLink("m@x.example")).url)
      expect((await press(page, "save-card-success", m.cookie)).status).toBe(404)
      expect((await press(page, "save-card-success", null)).status).toBe(401)
      expect(await methodOf()).toMatchObject({ last4: "9995" })

      // Saved: back to the portal, which says so and shows the new card; the session is used up.
      const saved = await press(page, "save-card-success")
      expect([saved.status, saved.headers.get("location")]).toEqual([303, `${BASE}/customer-portal?notice=methodUpdated`])
      expect((await portalHtml(k.cookie, "/customer-portal?notice=methodUpdated")).html).toContain("Your payment method was updated.")
      expect(await methodOf()).toMatchObject({ brand: "visa", last4: "4242" })
      expect((await portalHtml(k.cookie)).html).toContain("Visa ending in 4242, expires 12/2034")
      const replayed = await press(page, "save-card-hard_decline")
      expect(replayed.headers.get("location")).toBe(`${BASE}/customer-portal?notice=methodSetupClosed`)
      expect(await methodOf()).toMatchObject({ last4: "4242" })

      // A session left open past its hour is refused, even in a new portal session.
      const stale = await setupPage()
      const first = (await call(sandbox, "GET", `/api/v1/subscriptions/${plan["id"]}`)).json["data"] as Json
      await runtime.runPromise(clock.advance(Math.ceil((Date.parse(first["current_period_end"]) - Number(clock.unsafeNow() / 1000n)) / 1000) + 1))
      const k2 = await open((await portalLink("k@x.example")).url)
      expect((await press(stale, "save-card-hard_decline", k2.cookie)).headers.get("location")).toBe(`${BASE}/customer-portal?notice=methodSetupClosed`)

      // The renewal charges the new card (the old one declines every charge): paid, and the period moves on.
      const ran = await handler(new Request("http://kit.test/admin/v1/scheduler/run", { method: "POST", headers: { authorization: "Bearer admin-token" } }))
      expect(ran.status).toBe(200)
      const renewed = (await call(sandbox, "GET", `/api/v1/subscriptions/${plan["id"]}`)).json["data"] as Json
      expect(renewed).toMatchObject({ status: "active", saved_payment_method: { last4: "4242" }, latest_invoice: { status: "paid" } })
      expect(Date.parse(renewed["current_period_end"])).toBeGreaterThan(Date.parse(first["current_period_end"]))
    })
  })
