import { promises as dns } from "node:dns"
import { Effect, Layer } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { WebhookSender, type OutgoingWebhook, type SendResult } from "../../core/webhooks/webhook-sender.js"
import { make, type HttpWebhookSenderOptions } from "./http-webhook-sender.js"
import type { ResolveAll } from "./pinned-lookup.js"
import { startReceiver, type LoopbackReceiver } from "./testing/loopback-receiver.js"

const send = (webhook: OutgoingWebhook, options: HttpWebhookSenderOptions): Promise<SendResult> =>
  Effect.flatMap(WebhookSender, (sender) => sender.send(webhook)).pipe(Effect.provide(Layer.succeed(WebhookSender, make(options))), Effect.runPromise)

const webhookTo = (url: string): OutgoingWebhook => ({ url, body: "{}", headers: { "x-signature": "sha256=00" } })

const resolvesTo = (...addresses: ReadonlyArray<string>): ResolveAll => () =>
  Promise.resolve(addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })))

let receivers: Array<LoopbackReceiver> = []
const receiver = async (host?: string) => {
  const started = await startReceiver(undefined, host)
  receivers.push(started)
  return started
}
afterEach(async () => {
  await Promise.all(receivers.map((r) => r.close()))
  receivers = []
})

describe("HTTP webhook sender: SSRF guard refuses private targets before connecting", () => {
  const guarded: HttpWebhookSenderOptions = { timeoutMs: 2_000, allowPrivateTargets: false }

  it.each([
    ["127.0.0.1", "127.0.0.1", "refused target: loopback (127.0.0.1)"],
    ["localhost", "127.0.0.1", "refused target: loopback (localhost)"], // refused by name, before any lookup
    ["[::1]", "::1", "refused target: loopback (::1)"],
    ["[::ffff:127.0.0.1]", "127.0.0.1", "refused target: loopback (::ffff:7f00:1)"]
  ])("refuses %s and the receiver sees nothing", async (urlHost, listenOn, error) => {
    const target = await receiver(listenOn)
    const result = await send(webhookTo(target.url("/hook", urlHost)), guarded)
    expect(result).toMatchObject({ _tag: "Failed", error })
    expect(result.durationMs).toBeGreaterThanOrEqual(0)
    expect(target.connections()).toBe(0)
  })

  it("refuses a name that resolves to a public and a loopback address (DNS rebinding)", async () => {
    const target = await receiver()
    const result = await send(
      webhookTo(target.url("/hook", "rebind.example.com")),
      { ...guarded, resolveAll: resolvesTo("93.184.216.34", "127.0.0.1") }
    )
    expect(result).toMatchObject({ _tag: "Failed", error: "refused target: loopback (127.0.0.1)" })
    expect(target.connections()).toBe(0)
  })

  it("refuses the cloud metadata address", async () => {
    const result = await send(webhookTo("http://169.254.169.254/latest/meta-data/"), guarded)
    expect(result).toMatchObject({ _tag: "Failed", error: "refused target: metadata (169.254.169.254)" })
  })

  it("refuses other schemes and URL credentials without echoing them", async () => {
    expect(await send(webhookTo("ftp://8.8.8.8/"), guarded)).toMatchObject({ error: "refused target: unsupported scheme ftp:" })
    const withCredentials = await send(webhookTo("https://merchant:hunter2@8.8.8.8/"), guarded)
    expect(withCredentials).toMatchObject({ _tag: "Failed", error: "refused target: credentials in URL" })
  })

  it("fails an unresolvable name as a lookup failure", async () => {
    const notFound: ResolveAll = () => Promise.reject(Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" }))
    const result = await send(webhookTo("https://missing.example.com/"), { ...guarded, resolveAll: notFound })
    expect(result).toMatchObject({ _tag: "Failed", error: "DNS lookup of missing.example.com failed: ENOTFOUND" })
  })

  it("times out a resolution that never answers", async () => {
    const hanging: ResolveAll = () => new Promise(() => {})
    const result = await send(webhookTo("https://slow.example.com/"), { ...guarded, timeoutMs: 200, resolveAll: hanging })
    expect(result).toMatchObject({ _tag: "Failed", error: "timeout after 200 ms" })
    expect(result.durationMs).toBeLessThan(1_200)
  })
})

describe("HTTP webhook sender: connects to the pinned address", () => {
  const open: HttpWebhookSenderOptions = { timeoutMs: 2_000, allowPrivateTargets: true }

  it("connects to the address it resolved for localhost", async () => {
    const [chosen] = await dns.lookup("localhost", { all: true, verbatim: true })
    const target = await receiver(chosen!.address)
    const result = await send(webhookTo(target.url("/hook", "localhost")), open)
    expect(result).toMatchObject({ _tag: "Responded", statusCode: 200 })
    expect(target.received[0]!.localAddress).toBe(chosen!.address)
    expect(target.received[0]!.headers.host).toBe(`localhost:${target.port}`)
  })

  it("uses the pinned address, not a second resolution, and keeps the name for the Host header", async () => {
    // Nothing else resolves pinned.test, and nothing but 127.0.0.2 is listening on this port.
    const target = await receiver("127.0.0.2")
    const result = await send(webhookTo(target.url("/hook", "pinned.test")), { ...open, resolveAll: resolvesTo("127.0.0.2") })
    expect(result).toMatchObject({ _tag: "Responded", statusCode: 200 })
    expect(target.received[0]!.localAddress).toBe("127.0.0.2")
    expect(target.received[0]!.headers.host).toBe(`pinned.test:${target.port}`)
  })

  it("reaches an IPv6 loopback literal when private targets are allowed", async () => {
    const target = await receiver("::1")
    const result = await send(webhookTo(target.url("/hook", "[::1]")), open)
    expect(result).toMatchObject({ _tag: "Responded", statusCode: 200 })
    expect(target.received[0]!.headers.host).toBe(`[::1]:${target.port}`)
  })
})
