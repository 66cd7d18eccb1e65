import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Event } from "../../event-types.js"
import { createMerchantClient, type MerchantClient } from "../../merchant-client.js"
import type { IssuedCredentials } from "../../../hosts/embedding/index.js"
import { waitFor } from "../../../testing/hosts/child-hosts.js"
import { type RecordingReceiver, startRecordingReceiver } from "../../../testing/http/loopback.js"
import { type PlatformDashboard, startPlatformDashboard } from "../../../testing/http/platform-dashboard.js"
import { signRequest } from "../../../core/signing/request-signature.js"
import { ExitCode } from "../cli-command.js"
import { eventsList } from "./events-list.js"
import { eventsResend } from "./events-resend.js"
import { logsTailCommand } from "./logs-tail.js"
import { fakeContext } from "./testing/fake-context.js"
import { verifySignature } from "./verify-signature.js"

/**
 * The commands against a kit embedded in a node:http server (SQLite, in process): events a real
 * payment wrote, sent again, and a delivery the kit really signed, checked as a merchant pastes it.
 */
describe("CLI commands against an embedded host", () => {
  let host: PlatformDashboard
  let receiver: RecordingReceiver
  let credentials: IssuedCredentials
  let client: MerchantClient
  beforeAll(async () => {
    host = await startPlatformDashboard({ webhooks: { allowPrivateTargets: true } })
    receiver = await startRecordingReceiver(200)
    credentials = (await host.onboard("CLI Shop")).credentials
    client = createMerchantClient({
      baseUrl: host.origin,
      merchantKey: credentials.merchant_key,
      apiKey: credentials.api_key,
      clientSecret: credentials.client_secret,
      environment: "sandbox",
      retries: 0
    })
    const session = await client.initiatePayment({
      payment_amount: "12.50",
      currency_code: "USD",
      ref_trx: "cli-1",
      success_redirect: "https://shop.example/ok",
      cancel_redirect: "https://shop.example/cancel",
      ipn_url: `${receiver.url}/ipn`
    })
    await client.simulatePayment(session.info.trx_id, "success")
    await waitFor("the payment's delivery", 20_000, () => receiver.received[0])
  }, 60_000)

  afterAll(async () => {
    await receiver?.close()
    await host?.close()
  })

  it("verify-signature verifies the delivery the kit sent, and names the line end a paste adds", async () => {
    const delivery = receiver.received[0]!
    const dir = mkdtempSync(join(tmpdir(), "mp-cli-delivery-"))
    writeFileSync(join(dir, "headers.txt"), Object.entries(delivery.headers).map(([name, value]) => `${name}: ${String(value)}`).join("\n"))
    writeFileSync(join(dir, "body.json"), delivery.body)
    const verified = fakeContext({ stdin: "" })
    const args = ["--headers-file", join(dir, "headers.txt"), "--secret", credentials.webhook_secret]
    expect(await verifySignature.run(verified.context, [...args, "--payload-file", join(dir, "body.json")])).toBe(ExitCode.ok)
    expect(verified.text()).toContain("X-Signature: verified")
    expect(verified.text()).toContain("Standard Webhooks: verified")

    const pasted = fakeContext({ stdin: `${delivery.body}\n` })
    expect(await verifySignature.run(pasted.context, args)).toBe(ExitCode.failed)
    expect(pasted.text()).toContain("a line end was added after the body")
  })

  it("events list shows the payment's event, and events resend sends it again with its own id", async () => {
    const listed = async () => {
      const fake = fakeContext({ json: true, client })
      expect(await eventsList.run(fake.context, ["--type", "payment.completed", "--limit", "5"])).toBe(ExitCode.ok)
      return fake.written.data as ReadonlyArray<Event>
    }
    const delivered = await waitFor("the event delivered", 20_000, async () => (await listed()).find((event) => event.status === "delivered"))
    expect(delivered).toMatchObject({ type: "payment.completed", url: `${receiver.url}/ipn`, last_status_code: 200 })

    const table = fakeContext({ tty: true, client })
    expect(await eventsList.run(table.context, [])).toBe(ExitCode.ok)
    expect(table.written.lines[0]).toMatch(/^CREATED +ID +TYPE +STATUS +ATTEMPTS +LAST RESULT$/)
    expect(table.text()).toMatch(new RegExp(`${delivered.id} +payment\\.completed +delivered +1 +HTTP 200`))

    const resend = fakeContext({ client })
    expect(await eventsResend.run(resend.context, [delivered.id])).toBe(ExitCode.ok)
    expect(resend.text()).toContain(`queued again: ${delivered.id} (payment.completed)`)
    const again = await waitFor("the second delivery", 20_000, () => receiver.received[1])
    expect(again.headers["webhook-id"]).toBe(delivered.id)

    const unknown = fakeContext({ client })
    expect(await eventsResend.run(unknown.context, ["evt_unknown"])).toBe(ExitCode.host)
    expect(unknown.written.problems[0]).toMatch(/^events resend: POST \/api\/v1\/events\/evt_unknown\/redeliver answered 404/)
  })

  it("logs tail shows the recent calls, then follows a refused one as it happens, and stops on Ctrl-C", async () => {
    await client.siteInfo()
    const tail = fakeContext({ client })
    const running = logsTailCommand({ intervalMs: 50 }).run(tail.context, ["--path", "/api/v1/"])
    await waitFor("the recent calls", 20_000, () => (tail.text().includes("GET /api/v1/site-info  200") ? true : undefined))
    await expect(client.verifyPayment("TRX-NOT-THERE")).rejects.toThrow()
    const shown = await waitFor("the refused call", 20_000, () => {
      const at = tail.written.lines.findIndex((line) => /^\d\d:\d\d:\d\d  GET \/api\/v1\/verify-payment\/TRX-NOT-THERE  404  \d+ ms  \S+$/.test(line))
      return at === -1 ? undefined : tail.written.lines.slice(at)
    })
    expect(shown[1]).toMatch(/^  [A-Z_]+: .+/)
    tail.controller.abort()
    expect(await running).toBe(ExitCode.ok)
    // Polled every 50 ms the whole time, each call is still printed once.
    expect(tail.written.lines.filter((line) => line.includes("TRX-NOT-THERE"))).toHaveLength(1)
  })

  it("logs tail prints a call signed without its query string, answered 401, and the line names the query string", async () => {
    const tail = fakeContext({ client })
    const running = logsTailCommand({ intervalMs: 50 }).run(tail.context, ["--status", "4xx"])
    // Signed over the path alone, as a client that forgets the query does.
    const timestamp = String(Math.floor(Date.now() / 1000))
    const refused = await fetch(`${host.origin}/api/v1/subscriptions?page=2`, {
      headers: {
        "x-environment": "sandbox",
        "x-merchant-key": credentials.merchant_key,
        "x-api-key": credentials.api_key,
        "x-timestamp": timestamp,
        "x-signature": signRequest(credentials.client_secret, { timestamp, method: "GET", pathWithQuery: "/api/v1/subscriptions", rawBody: "" })
      }
    })
    expect(refused.status).toBe(401)
    await client.siteInfo()
    const shown = await waitFor("the refused call in the tail", 20_000, () => (tail.text().includes("query string") ? tail.written.lines : undefined))
    tail.controller.abort()
    expect(await running).toBe(ExitCode.ok)
    const at = shown.findIndex((line) => /^\d\d:\d\d:\d\d  GET \/api\/v1\/subscriptions\?page=2  401  \d+ ms  \S+$/.test(line))
    expect(at).toBeGreaterThanOrEqual(0)
    expect(shown.slice(at + 1).join("\n")).toMatch(/signature: \w+: .*query string/)
    expect(shown.slice(at + 1).join("\n")).toContain(`canonical: "${timestamp}.GET./api/v1/subscriptions?page=2.`)
    // The good call is not a 4xx, so this tail never shows it.
    expect(tail.text()).not.toContain("/api/v1/site-info")
  })
})
