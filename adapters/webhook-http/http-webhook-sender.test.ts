import { Effect, Layer } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { WebhookSender, type OutgoingWebhook, type SendResult } from "../../core/webhooks/webhook-sender.js"
import { defaultUserAgent, make, type HttpWebhookSenderOptions } from "./http-webhook-sender.js"
import { neverReply, replyWith, startReceiver, type LoopbackReceiver, type Reply } from "./testing/loopback-receiver.js"

const open: HttpWebhookSenderOptions = { timeoutMs: 5_000, allowPrivateTargets: true }

const send = (webhook: OutgoingWebhook, options: HttpWebhookSenderOptions = open): Promise<SendResult> =>
  Effect.flatMap(WebhookSender, (sender) => sender.send(webhook)).pipe(Effect.provide(Layer.succeed(WebhookSender, make(options))), Effect.runPromise)

const signedHeaders = { "x-signature": "sha256=5eb63bbbe01eeed093cb22bb8f5acdc3", "x-event-id": "evt_1", "x-environment": "sandbox" }
const webhookTo = (url: string, body = "{\"ok\":true}"): OutgoingWebhook => ({ url, body, headers: signedHeaders })

let receivers: Array<LoopbackReceiver> = []
const receiver = async (reply?: Reply, host?: string) => {
  const started = await startReceiver(reply, host)
  receivers.push(started)
  return started
}
afterEach(async () => {
  await Promise.all(receivers.map((r) => r.close()))
  receivers = []
})

describe("HTTP webhook sender: delivery to a real loopback receiver", () => {
  it("POSTs the exact body bytes, including non-ASCII UTF-8, with the signing headers", async () => {
    const target = await receiver()
    const body = "{\"customer\":\"Zoë Ångström — 東京\",\"note\":\"💳 paid\",\"amount\":\"10.00\"}"
    const result = await send(webhookTo(target.url("/hooks/ipn?merchant=m_1"), body))

    expect(result).toMatchObject({ _tag: "Responded", statusCode: 200 })
    expect(result.durationMs).toBeGreaterThanOrEqual(0)
    expect(target.received).toHaveLength(1)
    const [seen] = target.received
    expect(seen!.method).toBe("POST")
    expect(seen!.path).toBe("/hooks/ipn?merchant=m_1")
    expect(seen!.body.equals(Buffer.from(body, "utf8"))).toBe(true)
    expect(seen!.headers).toMatchObject({
      ...signedHeaders,
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(body, "utf8")),
      "user-agent": defaultUserAgent,
      host: `127.0.0.1:${target.port}`
    })
  })

  it("uses the configured user agent and keeps framing headers its own", async () => {
    const target = await receiver()
    const result = await send(
      { url: target.url(), body: "{}", headers: { ...signedHeaders, "Content-Length": "999", Host: "evil.example", "Content-Type": "text/plain" } },
      { ...open, userAgent: "acme-payments/2.3" }
    )
    expect(result).toMatchObject({ _tag: "Responded", statusCode: 200 })
    expect(target.received[0]!.headers).toMatchObject({
      "user-agent": "acme-payments/2.3",
      "content-length": "2",
      "content-type": "application/json",
      host: `127.0.0.1:${target.port}`
    })
  })

  it("reports a 500 as a response with its status", async () => {
    const target = await receiver(replyWith(500))
    expect(await send(webhookTo(target.url()))).toMatchObject({ _tag: "Responded", statusCode: 500 })
  })

  it("never follows a redirect: a 302 is the result and its Location is not called", async () => {
    const elsewhere = await receiver()
    const target = await receiver(replyWith(302, { location: elsewhere.url("/stolen") }))
    expect(await send(webhookTo(target.url()))).toMatchObject({ _tag: "Responded", statusCode: 302 })
    expect(target.received).toHaveLength(1)
    expect(elsewhere.connections()).toBe(0)
  })

  it("stops reading a large response body after 64 KiB instead of waiting for its end", async () => {
    const target = await receiver((response) => {
      response.writeHead(200)
      response.write(Buffer.alloc(256 * 1024, 0x61)) // and never ends
    })
    const result = await send(webhookTo(target.url()), { ...open, timeoutMs: 4_000 })
    expect(result).toMatchObject({ _tag: "Responded", statusCode: 200 })
    expect(result.durationMs).toBeLessThan(2_000)
  })
})

describe("HTTP webhook sender: failures are results", () => {
  it("fails an invalid URL", async () => {
    expect(await send(webhookTo("not a url"))).toMatchObject({ _tag: "Failed", error: "invalid URL" })
  })

  it("times out a receiver that never answers within the timeout plus a margin", async () => {
    const target = await receiver(neverReply)
    const result = await send(webhookTo(target.url()), { ...open, timeoutMs: 300 })
    expect(result).toMatchObject({ _tag: "Failed", error: "timeout after 300 ms" })
    expect(result.durationMs).toBeGreaterThanOrEqual(290)
    expect(result.durationMs).toBeLessThan(1_300)
    expect(target.received).toHaveLength(1)
  })

  it("counts a stalled body after the status line as a response, at the timeout", async () => {
    const target = await receiver((response) => {
      response.writeHead(200)
      response.write("partial") // and never ends
    })
    const result = await send(webhookTo(target.url()), { ...open, timeoutMs: 300 })
    expect(result).toMatchObject({ _tag: "Responded", statusCode: 200 })
    expect(result.durationMs).toBeGreaterThanOrEqual(290)
  })

  it("fails on a refused connection with the network error and no stack", async () => {
    const closed = await startReceiver()
    await closed.close()
    const result = await send(webhookTo(closed.url()))
    expect(result).toMatchObject({ _tag: "Failed", error: `connect ECONNREFUSED 127.0.0.1:${closed.port}` })
  })

  it("fails an HTTPS URL pointing at a plain HTTP receiver with a TLS error", async () => {
    const target = await receiver()
    const result = await send(webhookTo(`https://127.0.0.1:${target.port}/`))
    expect(result._tag).toBe("Failed")
    expect(result).not.toHaveProperty("error", "")
  })

  it("fails an unsendable header by its error code, never quoting the header values", async () => {
    const target = await receiver()
    const result = await send({ url: target.url(), body: "{}", headers: { "x-signature": "sha256=abc\r\nx-injected: 1" } })
    expect(result).toMatchObject({ _tag: "Failed", error: "invalid request: ERR_INVALID_CHAR" })
    expect(target.connections()).toBe(0)
  })

  it("destroys the request when the attempt is interrupted", async () => {
    let closedByPeer!: () => void
    const peerClosed = new Promise<void>((resolve) => (closedByPeer = resolve))
    const target = await receiver((response) => response.on("close", closedByPeer))
    const program = Effect.flatMap(WebhookSender, (sender) => sender.send(webhookTo(target.url()))).pipe(
      Effect.provide(Layer.succeed(WebhookSender, make({ ...open, timeoutMs: 20_000 }))),
      Effect.timeout("300 millis"),
      Effect.either
    )
    const outcome = await Effect.runPromise(program)
    expect(outcome._tag).toBe("Left")
    await peerClosed
  })
})
