import { HttpApp } from "@effect/platform"
import { Effect, LogLevel, Logger, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../../adapters/http/app.js"
import { makeManualClock } from "../../core/shared/manual-clock.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { type RecordingReceiver, startRecordingReceiver } from "../../testing/http/loopback.js"
import { signedRequest, type TestCaller } from "../../testing/http/signed-client.js"
import { billingKitConfig, ipnEvents, sandboxShop } from "./sandbox-shop.js"
import { until } from "./until.js"

type Json = Record<string, any>
const DAY_MS = 86_400_000

/**
 * What a dunning walk needs from its host, whatever moves its time: the manual clock and the
 * scheduler run here; a sandbox test clock's advance (and an SMTP server receiving each reminder's
 * email) when the integrator reruns the same walk.
 */
export interface DunningDriver {
  /** A signed call to the merchant API. */
  readonly call: (method: string, path: string, body?: unknown) => Promise<{ readonly status: number; readonly json: Json }>
  /** Moves business time to just after `iso` and runs everything due up to it. */
  readonly advanceTo: (iso: string) => Promise<void>
  /** The bodies of the events the subscription's ipn_url received, each event once, in arrival order. */
  readonly events: () => ReadonlyArray<Json>
  readonly ipnUrl: string
  /** Extra fields of the create request (a test clock's id). */
  readonly createExtras?: Readonly<Record<string, unknown>>
  /** Called once each reminder's event arrived (an integrator's check of its email). */
  readonly onReminder?: (reminder: Json, step: number) => Promise<void>
}

const plusDays = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY_MS).toISOString()

const subscriptionBody = (driver: DunningDriver, reference: string) => ({
  external_reference: reference,
  billing_cycle: "monthly",
  payment_amount: "12.50",
  currency_code: "USD",
  customer_email: "payer@example.com",
  success_redirect: "https://shop.example/ok",
  cancel_redirect: "https://shop.example/cancel",
  ipn_url: driver.ipnUrl,
  ...driver.createExtras
})

const pay = async (driver: DunningDriver, trxId: string) => {
  const paid = await driver.call("POST", `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome: "success" })
  expect([paid.status, paid.json["status"]]).toEqual([200, "success"])
}

/** The subscription's own events (payment events aside), each once, in arrival order. */
const eventsOf = (driver: DunningDriver, id: string) =>
  driver.events().filter((event) => event["data"]?.["id"] === id && !String(event["event"]).startsWith("payment."))

const waitFor = (driver: DunningDriver, id: string, event: string, count: number) =>
  until(() => eventsOf(driver, id).filter((e) => e["event"] === event).length >= count, 15_000, `${count} × ${event}`)

/** A monthly subscription, its first invoice paid, then its renewal left unpaid: it is past_due and dunning has begun. */
const renewalLeftUnpaid = async (driver: DunningDriver, reference: string) => {
  const created = await driver.call("POST", "/api/v1/subscriptions", subscriptionBody(driver, reference))
  expect(created.status).toBe(201)
  const id = created.json["data"]["id"] as string
  await pay(driver, created.json["data"]["latest_invoice"]["trx_id"])
  const active = (await driver.call("GET", `/api/v1/subscriptions/${id}`)).json["data"] as Json
  expect(active["status"]).toBe("active")
  const due = active["current_period_end"] as string
  await driver.advanceTo(due)
  const pastDue = (await driver.call("GET", `/api/v1/subscriptions/${id}`)).json["data"] as Json
  expect(pastDue).toMatchObject({ status: "past_due", latest_invoice: { sequence: 2, status: "pending" } })
  await waitFor(driver, id, "subscription.past_due", 1)
  return { id, due }
}

/**
 * The must-show, on the default settings (reminders 1, 3 and 7 days after the renewal fell
 * due, 14 days of grace, then cancel): a hosted-invoice subscription walks every reminder, each
 * carrying a checkout payable at its time (an expired one replaced by a fresh invoice), to
 * `invoice.uncollectible` and `subscription.cancelled` on day 14; its events arrive in that order.
 */
export const walkDunningToCancellation = async (driver: DunningDriver, reference = "dunning-walk") => {
  const reset = await driver.call("PUT", "/api/v1/billing-settings", {})
  expect(reset).toMatchObject({ status: 200, json: { data: { reminder_days: [1, 3, 7], grace_days: 14, final_action: "cancel" } } })
  const { due, id } = await renewalLeftUnpaid(driver, reference)

  const days = [1, 3, 7]
  for (const [index, day] of days.entries()) {
    const when = plusDays(due, day)
    await driver.advanceTo(when)
    await waitFor(driver, id, "invoice.reminder", index + 1)
    const reminder = eventsOf(driver, id).filter((e) => e["event"] === "invoice.reminder")[index]!
    expect(reminder["status"]).toBe("past_due")
    const invoice = reminder["data"]["invoice"] as Json
    // Payable when it was sent: a checkout link whose expiry is after the reminder's time.
    expect(typeof invoice["payment_url"]).toBe("string")
    expect(invoice["status"]).toBe("pending")
    expect(Date.parse(invoice["checkout_expires_at"])).toBeGreaterThan(Date.parse(when))
    expect(invoice["period_start"]).toBe(due)
    await driver.onReminder?.(reminder, index + 1)
    const still = (await driver.call("GET", `/api/v1/subscriptions/${id}`)).json["data"] as Json
    expect(still["status"]).toBe("past_due")
  }

  await driver.advanceTo(plusDays(due, 13))
  expect((await driver.call("GET", `/api/v1/subscriptions/${id}`)).json["data"]["status"]).toBe("past_due")
  await driver.advanceTo(plusDays(due, 14))
  // Both final events are written in one transaction but delivered apart: wait for each.
  await waitFor(driver, id, "subscription.cancelled", 1)
  await waitFor(driver, id, "invoice.uncollectible", 1)
  const cancelled = (await driver.call("GET", `/api/v1/subscriptions/${id}`)).json["data"] as Json
  expect(cancelled).toMatchObject({ status: "cancelled", cancelled_at: plusDays(due, 14).replace(/\.(\d{3})Z$/, ".$1000Z") })
  expect(cancelled["latest_invoice"]["status"]).not.toBe("pending")

  // Each step an event, in the order they happened; a reminder after an expired checkout comes with a fresh invoice.
  // `invoice.paid` is written with `subscription.activated` and may arrive before or after it: counted apart.
  const sequence = eventsOf(driver, id).map((e) => e["event"] as string).filter((event) => event !== "invoice.created" && event !== "invoice.paid")
  expect(eventsOf(driver, id).filter((e) => e["event"] === "invoice.paid")).toHaveLength(1)
  expect(sequence.slice(0, 5)).toEqual([
    "subscription.activated", "subscription.past_due",
    "invoice.reminder", "invoice.reminder", "invoice.reminder"
  ])
  // The last two are written in one transaction and may arrive in either order (their event
  // sequence, GET /api/v1/events, orders them: uncollectible first).
  expect([...sequence.slice(5)].sort()).toEqual(["invoice.uncollectible", "subscription.cancelled"])
  const uncollectible = eventsOf(driver, id).find((e) => e["event"] === "invoice.uncollectible")!
  expect(uncollectible["data"]["invoice"]["period_start"]).toBe(due)
  // Nothing more is ever sent for it.
  const eventsBefore = eventsOf(driver, id).length
  await driver.advanceTo(plusDays(due, 40))
  expect(eventsOf(driver, id)).toHaveLength(eventsBefore)
  return { id, due }
}

/**
 * Custom settings (a reminder on day 2, 5 days of grace): the customer pays through the reminder's
 * checkout, the subscription is active again for its next period, and the campaign never reaches
 * its final action.
 */
export const walkDunningToRecovery = async (driver: DunningDriver, reference = "dunning-recovery") => {
  const set = await driver.call("PUT", "/api/v1/billing-settings", { reminder_days: [2], grace_days: 5, final_action: "cancel" })
  expect(set).toMatchObject({ status: 200, json: { data: { reminder_days: [2], grace_days: 5, final_action: "cancel", retry_hours: [24, 72, 120, 168, 216, 264, 336] } } })
  const { due, id } = await renewalLeftUnpaid(driver, reference)
  await driver.advanceTo(plusDays(due, 2))
  await waitFor(driver, id, "invoice.reminder", 1)
  const reminder = eventsOf(driver, id).find((e) => e["event"] === "invoice.reminder")!
  await pay(driver, reminder["data"]["invoice"]["trx_id"])
  await waitFor(driver, id, "subscription.renewed", 1)
  const recovered = (await driver.call("GET", `/api/v1/subscriptions/${id}`)).json["data"] as Json
  expect(recovered).toMatchObject({ status: "active", current_period_start: due })
  await driver.advanceTo(plusDays(due, 6))
  expect((await driver.call("GET", `/api/v1/subscriptions/${id}`)).json["data"]["status"]).toBe("active")
  // Each `invoice.paid` is written with the activation or renewal it pays for: counted apart, as its arrival order is theirs.
  // The renewal's is queued with `subscription.renewed` but is its own delivery, which may land after it.
  await waitFor(driver, id, "invoice.paid", 2)
  expect(eventsOf(driver, id).map((e) => e["event"]).filter((event) => event !== "invoice.created" && event !== "invoice.paid")).toEqual([
    "subscription.activated", "subscription.past_due", "invoice.reminder", "subscription.renewed"
  ])
  expect(eventsOf(driver, id).filter((e) => e["event"] === "invoice.paid")).toHaveLength(2)
  return { id, due }
}

/**
 * `stay_past_due`, no reminders, 2 days of grace: on day 2 `invoice.uncollectible`, the campaign ends,
 * the subscription stays past_due and its invoice stays payable through renew; nothing more is sent.
 */
export const walkDunningToStayPastDue = async (driver: DunningDriver, reference = "dunning-stay") => {
  const set = await driver.call("PUT", "/api/v1/billing-settings", { reminder_days: [], grace_days: 2, final_action: "stay_past_due" })
  expect(set).toMatchObject({ status: 200, json: { data: { reminder_days: [], grace_days: 2, final_action: "stay_past_due" } } })
  const { due, id } = await renewalLeftUnpaid(driver, reference)
  await driver.advanceTo(plusDays(due, 1))
  expect(eventsOf(driver, id).map((e) => e["event"])).not.toContain("invoice.uncollectible")
  await driver.advanceTo(plusDays(due, 2))
  await waitFor(driver, id, "invoice.uncollectible", 1)
  const after = eventsOf(driver, id).length
  expect((await driver.call("GET", `/api/v1/subscriptions/${id}`)).json["data"]["status"]).toBe("past_due")
  const renewed = await driver.call("POST", `/api/v1/subscriptions/${id}/renew`, {})
  expect(renewed.status).toBe(200)
  expect(renewed.json["data"]).toMatchObject({ status: "past_due", latest_invoice: { status: "pending", period_start: due } })
  await driver.advanceTo(plusDays(due, 30))
  // Renew's fresh checkout may add its invoice.created; no dunning step comes any more.
  expect(eventsOf(driver, id).slice(after).map((e) => e["event"]).filter((event) => event !== "invoice.created")).toEqual([])
  return { id, due }
}

/** The walks above on one store, time moved by the host's manual clock and the admin scheduler run. */
export const dunningSuite = (name: string, store: () => StoreConfig) =>
  describe(`dunning over HTTP: ${name}`, () => {
    const manual = makeManualClock(Date.UTC(2029, 2, 10, 8, 0, 0))
    let receiver: RecordingReceiver
    let runtime: ManagedRuntime.ManagedRuntime<any, any>
    let handler: (request: Request) => Promise<Response>
    let caller: TestCaller
    let driver: DunningDriver

    beforeAll(async () => {
      receiver = await startRecordingReceiver()
      runtime = ManagedRuntime.make(kitLayer(billingKitConfig(store(), { manualClock: manual })))
      caller = await runtime.runPromise(sandboxShop("Dunning shop", "dun"))
      handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp.pipe(Effect.withClock(manual.clock), Logger.withMinimumLogLevel(LogLevel.Warning)))
      const call = async (method: string, path: string, body?: unknown) => {
        const response = await handler(signedRequest(caller, method, path, body === undefined ? "" : JSON.stringify(body)))
        return { status: response.status, json: (await response.json()) as Json }
      }
      const runScheduler = async () => {
        const response = await handler(new Request("http://kit.test/admin/v1/scheduler/run", { method: "POST", headers: { authorization: "Bearer admin-token" } }))
        expect(response.status).toBe(200)
        return ((await response.json()) as Json)["data"]["processed"] as number
      }
      driver = {
        call,
        ipnUrl: `${receiver.url}/ipn`,
        advanceTo: async (iso) => {
          const seconds = Math.ceil((Date.parse(iso) - Number(manual.unsafeNow() / 1000n)) / 1000) + 1
          if (seconds > 0) await runtime.runPromise(manual.advance(seconds))
          // One step per subscription and run: run until nothing more is due.
          for (let run = 0; run < 20 && (await runScheduler()) > 0; run++);
        },
        events: () => ipnEvents(receiver)
      }
    })
    afterAll(async () => {
      await runtime.dispose()
      await receiver.close()
    })

    it("a hosted-invoice subscription walks its reminders (days 1, 3, 7) to cancellation on day 14, each step an event", async () => {
      await walkDunningToCancellation(driver)
    }, 120_000)

    it("a payment through a reminder's checkout recovers the subscription and stops the campaign (custom days)", async () => {
      await walkDunningToRecovery(driver)
      const metrics = await handler(new Request("http://kit.test/metrics", { headers: { authorization: "Bearer admin-token" } }))
      const text = await metrics.text()
      expect(text).toMatch(/merchant_payments_dunning_invoices_recovered_total\{[^}]*environment="sandbox"[^}]*\} [1-9]/)
      expect(text).toMatch(/merchant_payments_dunning_invoices_lost_total\{[^}]*environment="sandbox"[^}]*\} [1-9]/)
    }, 120_000)

    it("stay_past_due: the campaign ends unpaid on the grace period's last day, the subscription stays past_due and payable", async () => {
      await walkDunningToStayPastDue(driver)
    }, 120_000)

    it("billing settings refuse what makes no schedule, each with a clear 422", async () => {
      const shape = await driver.call("PUT", "/api/v1/billing-settings", { grace_days: 61, retry_hours: [0] })
      expect(shape.status).toBe(422)
      expect(shape.json["errors"]).toEqual({
        grace_days: [expect.stringContaining("60")],
        retry_hours: [expect.stringContaining("positive")]
      })
      const order = await driver.call("PUT", "/api/v1/billing-settings", { reminder_days: [3, 1], retry_hours: [24, 24], grace_days: 20 })
      expect([order.status, order.json["errors"]]).toEqual([422, {
        reminder_days: [expect.stringContaining("ascending")],
        retry_hours: [expect.stringContaining("ascending")]
      }])
      const late = await driver.call("PUT", "/api/v1/billing-settings", { reminder_days: [2, 9], grace_days: 9 })
      expect(late.status).toBe(422)
      expect(late.json["errors"]["reminder_days"]).toEqual([expect.stringContaining("before the grace period ends")])
      const many = await driver.call("PUT", "/api/v1/billing-settings", { reminder_days: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], grace_days: 30 })
      expect([many.status, many.json["errors"]["reminder_days"]]).toEqual([422, [expect.stringContaining("10")]])
      // Refusals change nothing: the last accepted settings stand.
      expect((await driver.call("GET", "/api/v1/billing-settings")).json["data"]).toMatchObject({ reminder_days: [], grace_days: 2, final_action: "stay_past_due" })
    })
  })
