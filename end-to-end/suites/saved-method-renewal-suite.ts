import { HttpApp } from "@effect/platform"
import { Effect, LogLevel, Logger, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../../adapters/http/app.js"
import { pressButton } from "../../conformance/gateway/html-forms.js"
import { makeManualClock } from "../../core/shared/manual-clock.js"
import { GatewayPlugins } from "../../core/gateways/gateway-plugin.js"
import { startMethodUpdate } from "../../core/subscriptions/method-update.js"
import { SavedMethodRepository } from "../../core/subscriptions/saved-method.js"
import { openReference } from "../../core/subscriptions/saved-methods.js"
import { SubscriptionRepository } from "../../core/subscriptions/subscription-repository.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { type RecordingReceiver, startRecordingReceiver } from "../../testing/http/loopback.js"
import { signedRequest, type TestCaller } from "../../testing/http/signed-client.js"
import { billingKitConfig, ipnEvents, sandboxMailOf, sandboxShop } from "./sandbox-shop.js"
import type { MerchantId } from "../../core/shared/ids.js"

type Json = Record<string, any>

const until = async (condition: () => boolean, timeoutMs = 15_000) => {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting")
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

const HOUR_MS = 3_600_000

/**
 * The must-show for saved methods: a monthly subscription whose first checkout is paid with
 * the sandbox card that declines its first two off-session charges. At period end the scheduler
 * renews it automatically; the charge is declined (invoice.payment_failed, past_due), retried on the
 * default schedule (24 h after the first try: declined again), and the third try (72 h) is paid:
 * invoice.paid, subscription.renewed, active with the next period. Time is the host's manual clock;
 * each step is one run of the scheduler endpoint.
 */
export const savedMethodRenewalSuite = (name: string, store: () => StoreConfig) =>
  describe(`a saved card renewing automatically: ${name}`, () => {
    const manual = makeManualClock(Date.UTC(2028, 2, 10, 12, 0, 0))
    let receiver: RecordingReceiver
    let runtime: ManagedRuntime.ManagedRuntime<any, any>
    let handler: (request: Request) => Promise<Response>
    let caller: TestCaller
    let merchantId: MerchantId

    beforeAll(async () => {
      receiver = await startRecordingReceiver()
      runtime = ManagedRuntime.make(kitLayer(billingKitConfig(store(), { manualClock: manual })))
      const shop = await runtime.runPromise(sandboxShop("Renewal shop", "card"))
      caller = shop
      merchantId = shop.merchantId
      handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp.pipe(Effect.withClock(manual.clock), Logger.withMinimumLogLevel(LogLevel.Warning)))
    })
    afterAll(async () => {
      await runtime.dispose()
      await receiver.close()
    })

    const call = async (method: string, path: string, body: unknown = undefined) => {
      const response = await handler(signedRequest(caller, method, path, body === undefined ? "" : JSON.stringify(body)))
      return { status: response.status, json: (await response.json()) as Json }
    }
    const runScheduler = async () => {
      const response = await handler(new Request("http://kit.test/admin/v1/scheduler/run", { method: "POST", headers: { authorization: "Bearer admin-token" } }))
      expect(response.status).toBe(200)
    }
    const advanceTo = (epochMs: number) =>
      runtime.runPromise(manual.advance(Math.ceil((epochMs - Number(manual.unsafeNow() / 1000n)) / 1000) + 1))
    const form = (fields: Record<string, string>) => ({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
      redirect: "manual" as const
    })

    /** The customer's hosted checkout: choose the sandbox gateway, then pay with the test card `card`. */
    const payWithCard = async (paymentUrl: string, card: string) => {
      const page = await (await handler(new Request(paymentUrl))).text()
      const gatewayId = /name="gateway_id" value="(\d+)"/.exec(page)?.[1]
      expect(gatewayId, page).toBeDefined()
      const chosen = await (await handler(new Request(`${paymentUrl}/pay`, form({ gateway_id: gatewayId! })))).text()
      const pay = pressButton(chosen, `pay-card-${card}`)
      expect(pay?.action, chosen).toBeDefined()
      const returned = await handler(new Request(pay!.action!, form(pay!.fields)))
      expect(returned.status).toBe(303)
    }

    const events = () => ipnEvents(receiver)
    const count = (event: string) => events().filter((e) => e["event"] === event).length

    it("declines twice, recovers on the third try, and stays billed on its anchor", async () => {
      const created = await call("POST", "/api/v1/subscriptions", {
        external_reference: "auto-1",
        billing_cycle: "monthly",
        payment_amount: "25.00",
        currency_code: "USD",
        customer_email: "saver@example.com",
        success_redirect: "https://shop.example/ok",
        cancel_redirect: "https://shop.example/cancel",
        ipn_url: `${receiver.url}/ipn`
      })
      expect(created.status).toBe(201)
      const id = created.json["data"]["id"] as string
      await payWithCard(created.json["data"]["latest_invoice"]["payment_url"], "declines_twice")

      const first = (await call("GET", `/api/v1/subscriptions/${id}`)).json["data"] as Json
      expect(first).toMatchObject({ status: "active", saved_payment_method: { brand: "visa", last4: "0341", exp_month: 12, exp_year: 2034 } })
      expect(JSON.stringify(first)).not.toContain("sbx_pm_")
      const periodEnd = Date.parse(first["current_period_end"])

      // Renewal: the invoice opens and its charge is tried at once: declined, so past_due.
      await advanceTo(periodEnd)
      await runScheduler()
      const declined = (await call("GET", `/api/v1/subscriptions/${id}`)).json["data"] as Json
      expect(declined["status"]).toBe("past_due")
      expect(declined["latest_invoice"]).toMatchObject({ status: "pending", period_start: first["current_period_end"] })
      await until(() => count("invoice.payment_failed") >= 1)

      // Nothing is tried before the first retry's time (24 h after the renewal's first try).
      await advanceTo(periodEnd + 23 * HOUR_MS)
      await runScheduler()
      expect((await call("GET", `/api/v1/subscriptions/${id}`)).json["data"]["status"]).toBe("past_due")

      await advanceTo(periodEnd + 24 * HOUR_MS)
      await runScheduler()
      await until(() => count("invoice.payment_failed") >= 2)
      expect((await call("GET", `/api/v1/subscriptions/${id}`)).json["data"]["status"]).toBe("past_due")

      // The third try, 72 h after the first: paid, renewed for the next period.
      await advanceTo(periodEnd + 72 * HOUR_MS)
      await runScheduler()
      const renewed = (await call("GET", `/api/v1/subscriptions/${id}`)).json["data"] as Json
      expect(renewed).toMatchObject({ status: "active", current_period_start: first["current_period_end"], saved_payment_method: { last4: "0341" } })
      expect(Date.parse(renewed["current_period_end"])).toBeGreaterThan(periodEnd + 28 * 24 * HOUR_MS)
      expect(renewed["next_billing_at"]).toBe(renewed["current_period_end"])
      expect(renewed["latest_invoice"]).toMatchObject({ status: "paid", period_start: first["current_period_end"] })

      // Two declines and the recovery, as the merchant's ipn_url heard them; invoice.paid for both paid invoices.
      await until(() => count("invoice.paid") >= 2 && count("subscription.renewed") >= 1)
      expect(count("invoice.payment_failed")).toBe(2)
      expect(count("invoice.paid")).toBe(2)
      expect(count("subscription.renewed")).toBe(1)
      const failed = events().filter((e) => e["event"] === "invoice.payment_failed")
      expect(failed.every((e) => e["data"]["invoice"]["period_start"] === first["current_period_end"])).toBe(true)
      const recovered = events().find((e) => e["event"] === "invoice.paid" && e["data"]["invoice"]["period_start"] === first["current_period_end"])
      expect(recovered?.["data"]).toMatchObject({ status: "active", invoice: { status: "paid" } })

      // Each decline was mailed to the customer with the next try's time and a way to pay now.
      const mailed = (await runtime.runPromise(sandboxMailOf(merchantId, "payment_method_failed"))).filter((mail) => mail.to === "saver@example.com")
      expect(mailed.map((mail) => mail.facts.nextRetryAt).sort()).toEqual(
        [periodEnd + 24 * HOUR_MS, periodEnd + 72 * HOUR_MS].map((at) => new Date(at).toISOString().replace("Z", "000Z")))
      expect(mailed.every((mail) => mail.facts.amount.startsWith("25.") && mail.facts.payUrl !== null)).toBe(true)

      // Later ticks try nothing more: the renewal is settled.
      await advanceTo(periodEnd + 100 * HOUR_MS)
      await runScheduler()
      expect(count("invoice.payment_failed")).toBe(2)
    })

    it("a good card renews with no past_due; a hard decline is never retried and falls back to the hosted invoice", async () => {
      const subscribe = async (reference: string, card: string) => {
        const created = await call("POST", "/api/v1/subscriptions", {
          external_reference: reference,
          billing_cycle: "monthly",
          payment_amount: "9.00",
          currency_code: "USD",
          customer_email: `${reference}@example.com`,
          success_redirect: "https://shop.example/ok",
          cancel_redirect: "https://shop.example/cancel",
          ipn_url: `${receiver.url}/ipn`
        })
        expect(created.status).toBe(201)
        await payWithCard(created.json["data"]["latest_invoice"]["payment_url"], card)
        return (await call("GET", `/api/v1/subscriptions/${created.json["data"]["id"]}`)).json["data"] as Json
      }
      const good = await subscribe("auto-good", "success")
      const lost = await subscribe("auto-lost", "hard_decline")
      const eventsOf = (id: string, event: string) => events().filter((e) => e["data"]["id"] === id && e["event"] === event).length
      await advanceTo(Math.max(Date.parse(good["current_period_end"]), Date.parse(lost["current_period_end"])))
      await runScheduler()

      const renewed = (await call("GET", `/api/v1/subscriptions/${good["id"]}`)).json["data"] as Json
      expect(renewed).toMatchObject({ status: "active", current_period_start: good["current_period_end"], latest_invoice: { status: "paid" } })
      const fellBack = (await call("GET", `/api/v1/subscriptions/${lost["id"]}`)).json["data"] as Json
      expect(fellBack["status"]).toBe("past_due")
      expect(fellBack["latest_invoice"]).toMatchObject({ status: "pending", period_start: lost["current_period_end"] })
      // The hosted invoice is payable: its checkout link answers.
      expect((await handler(new Request(fellBack["latest_invoice"]["payment_url"]))).status).toBe(200)
      await until(() => eventsOf(lost["id"], "invoice.payment_failed") >= 1 && eventsOf(good["id"], "subscription.renewed") >= 1)
      expect(eventsOf(good["id"], "subscription.past_due")).toBe(0)
      expect(eventsOf(good["id"], "invoice.payment_failed")).toBe(0)

      // The customer gives another card where the portal sends them: the open invoice's checkout.
      const update = await runtime.runPromise(Effect.gen(function*() {
        const subscription = yield* (yield* SubscriptionRepository).findById(lost["id"])
        return yield* startMethodUpdate(subscription.pipe((found) => found._tag === "Some" ? found.value : undefined)!)
      }).pipe(Effect.withClock(manual.clock)))
      expect(update.url).toBe(fellBack["latest_invoice"]["payment_url"])
      await payWithCard(update.url, "success")
      const recovered = (await call("GET", `/api/v1/subscriptions/${lost["id"]}`)).json["data"] as Json
      expect(recovered).toMatchObject({ status: "active", current_period_start: lost["current_period_end"], saved_payment_method: { last4: "4242" } })

      // No retry, however long: one decline, then only the customer could pay.
      await advanceTo(Date.parse(lost["current_period_end"]) + 15 * 24 * HOUR_MS)
      await runScheduler()
      await until(() => eventsOf(lost["id"], "subscription.past_due") >= 1 && eventsOf(lost["id"], "subscription.renewed") >= 1)
      expect(eventsOf(lost["id"], "invoice.payment_failed")).toBe(1)
      expect(eventsOf(lost["id"], "subscription.past_due")).toBe(1)
    })

    it("a try whose call reached the gateway but whose outcome was never recorded is made again with the same key", async () => {
      const created = await call("POST", "/api/v1/subscriptions", {
        external_reference: "auto-crash",
        billing_cycle: "monthly",
        payment_amount: "12.00",
        currency_code: "USD",
        customer_email: "crash@example.com",
        success_redirect: "https://shop.example/ok",
        cancel_redirect: "https://shop.example/cancel",
        ipn_url: `${receiver.url}/ipn`
      })
      const id = created.json["data"]["id"] as string
      await payWithCard(created.json["data"]["latest_invoice"]["payment_url"], "declines_twice")
      const periodEnd = Date.parse((await call("GET", `/api/v1/subscriptions/${id}`)).json["data"]["current_period_end"])
      await advanceTo(periodEnd)
      await runScheduler()
      const failedOf = () => events().filter((e) => e["data"]["id"] === id && e["event"] === "invoice.payment_failed").length
      await until(() => failedOf() >= 1)

      // The second try is claimed and its call made (the card's second decline), then the host dies
      // before recording it: the claim stays on the subscription.
      await runtime.runPromise(Effect.gen(function*() {
        const repo = yield* SubscriptionRepository
        const subscription = (yield* repo.findById(id)).pipe((found) => found._tag === "Some" ? found.value : undefined)!
        const method = (yield* (yield* SavedMethodRepository).findById(subscription.savedMethodId!)).pipe((found) => found._tag === "Some" ? found.value : undefined)!
        const sandbox = yield* (yield* GatewayPlugins).get("sandbox")
        const answer = yield* sandbox.chargeSaved({
          method: yield* openReference(method), amount: "12.00", currency: "USD", reference: "INV-crash", idempotencyKey: "crashed-try-2",
          environment: "sandbox", gateway: { id: method.gatewayId, code: "card", name: "Card" }, config: {}
        })
        expect(answer.status).toBe("declined")
        yield* repo.transition(id, [subscription.status], { chargeClaim: "crashed-try-2" }, subscription.updatedAt)
      }).pipe(Effect.withClock(manual.clock)))

      // At the retry's time the claimed try is made again under its key: the gateway answers that
      // same decline (had a new key been used, this third charge would have been paid).
      await advanceTo(periodEnd + 24 * HOUR_MS)
      await runScheduler()
      await until(() => failedOf() >= 2)
      expect((await call("GET", `/api/v1/subscriptions/${id}`)).json["data"]["status"]).toBe("past_due")
      await advanceTo(periodEnd + 72 * HOUR_MS)
      await runScheduler()
      expect((await call("GET", `/api/v1/subscriptions/${id}`)).json["data"]).toMatchObject({ status: "active", latest_invoice: { status: "paid" } })
      expect(failedOf()).toBe(2)
    })
  })
