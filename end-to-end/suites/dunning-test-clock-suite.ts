import { HttpApp } from "@effect/platform"
import { LogLevel, Logger, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../../adapters/http/app.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { type RecordingReceiver, startRecordingReceiver } from "../../testing/http/loopback.js"
import { signedRequest } from "../../testing/http/signed-client.js"
import { type SmtpCatcher, startSmtpCatcher } from "../../testing/mail/smtp-catcher.js"
import { type DunningDriver, walkDunningToCancellation } from "./dunning-suite.js"
import { billingKitConfig, ipnEvents, sandboxShop } from "./sandbox-shop.js"

type Json = Record<string, any>

/**
 * The must-show for dunning: a hosted-invoice subscription on a sandbox test clock walks its
 * reminders to cancellation, time moved only by the clock's advances (the deployment's clock stays
 * real), and each reminder's email is received by a real SMTP server in this process (the
 * deployment's SANDBOX_SMTP_URL), naming the reminder and carrying the invoice's payable link.
 */
export const dunningTestClockSuite = (name: string, store: () => StoreConfig) =>
  describe(`dunning under a test clock, reminders by email: ${name}`, () => {
    let receiver: RecordingReceiver
    let smtp: SmtpCatcher
    let runtime: ManagedRuntime.ManagedRuntime<any, any>
    let driver: DunningDriver
    let clockId = ""

    beforeAll(async () => {
      receiver = await startRecordingReceiver()
      smtp = await startSmtpCatcher()
      // Real time's minute loop is off (billingKitConfig): only the clock's advances may move these subscriptions.
      runtime = ManagedRuntime.make(kitLayer(billingKitConfig(store(), {
        mail: { sandboxSmtpUrl: smtp.url, from: "Clock shop billing <billing@clock-shop.example>", pollIntervalMillis: 25 }
      })))
      const caller = await runtime.runPromise(sandboxShop("Clock shop", "clk"))
      const handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp.pipe(Logger.withMinimumLogLevel(LogLevel.Warning)))
      const call = async (method: string, path: string, body?: unknown) => {
        const response = await handler(signedRequest(caller, method, path, body === undefined ? "" : JSON.stringify(body)))
        return { status: response.status, json: (await response.json()) as Json }
      }
      const clock = await call("POST", "/api/v1/test-clocks", { frozen_time: "2029-03-10T08:00:00Z", name: "dunning walk" })
      expect(clock.status).toBe(201)
      clockId = clock.json["data"]["id"]
      driver = {
        call,
        ipnUrl: `${receiver.url}/ipn`,
        createExtras: { test_clock: clockId },
        advanceTo: async (iso) => {
          const current = (await call("GET", `/api/v1/test-clocks/${clockId}`)).json["data"]["frozen_time"] as string
          const target = new Date(Date.parse(iso) + 1_000).toISOString()
          if (Date.parse(target) <= Date.parse(current)) return
          const advanced = await call("POST", `/api/v1/test-clocks/${clockId}/advance`, { frozen_time: target })
          expect([advanced.status, advanced.json["data"]?.["status"]]).toEqual([200, "ready"])
        },
        events: () => ipnEvents(receiver),
        onReminder: async (reminder, step) => {
          const reminders = () => smtp.mails.filter((mail) => mail.subject.startsWith("Reminder: invoice"))
          for (let waited = 0; reminders().length < step && waited < 15_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50))
          const mail = reminders()[step - 1]
          expect(mail, `reminder mail ${step}`).toBeDefined()
          expect(mail!.to).toEqual(["payer@example.com"])
          // Named by its document number, as its PDF is.
          expect(mail!.subject).toBe(`Reminder: invoice ${reminder["data"]["invoice"]["number"]} from Clock shop is unpaid`)
          expect(mail!.text).toContain(`(reminder ${step})`)
          expect(mail!.text).toContain("12.50")
          // The link the customer is sent to is the reminder's payable checkout, in both parts.
          const payUrl = reminder["data"]["invoice"]["payment_url"] as string
          expect(mail!.text).toContain(payUrl)
          expect(mail!.html).toContain(payUrl.replaceAll("&", "&amp;"))
          expect(mail!.text).toContain("If it stays unpaid, the subscription will be cancelled on")
        }
      }
    }, 60_000)
    afterAll(async () => {
      await runtime?.dispose()
      await receiver?.close()
      await smtp?.close()
    })

    it("walks reminders on days 1, 3 and 7 to cancellation on day 14 by the clock's advances, each reminder received by email", async () => {
      const { id } = await walkDunningToCancellation(driver, "clock-dunning-walk")
      // Exactly three reminder mails, no more after the cancellation.
      expect(smtp.mails.filter((mail) => mail.subject.startsWith("Reminder: invoice"))).toHaveLength(3)
      const subscription = (await driver.call("GET", `/api/v1/subscriptions/${id}`)).json["data"] as Json
      expect(subscription).toMatchObject({ status: "cancelled", test_clock: clockId })
      // The clock ends ready at the walk's last advance, the deployment's clock untouched (a year ahead of it or not).
      const clock = (await driver.call("GET", `/api/v1/test-clocks/${clockId}`)).json["data"] as Json
      expect(clock["status"]).toBe("ready")
    }, 180_000)
  })
