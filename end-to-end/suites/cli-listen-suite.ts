import { type ChildProcess, spawn } from "node:child_process"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createMerchantClient, type MerchantClient } from "../../client/merchant-client.js"
import { signedHeaders, targetUrl } from "../../client/signed-transport.js"
import { standardWebhookSecret } from "../../core/webhooks/verify-webhook.js"
import type { DemoCredentials } from "../../hosts/standalone/demo-merchant.js"
import { readHostConfig } from "../../hosts/embedding/host-config.js"
import { type RunningServer, startServer } from "../../hosts/standalone/server.js"
import { sseMessages } from "../../client/cli/commands/sse-reader.js"
import { ensureBuilt } from "../../testing/hosts/build.js"
import { ROOT, waitFor } from "../../testing/hosts/child-hosts.js"

interface Hit {
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/** A local receiver, as a developer's app on localhost would be: it keeps what it is sent and answers 200. */
const startLocalReceiver = async () => {
  const hits: Array<Hit> = []
  const server: Server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      hits.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") })
      response.writeHead(200).end("ok")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return { hits, url: `http://127.0.0.1:${port}/hook`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

const header = (headers: IncomingHttpHeaders, name: string) => {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

/** Opens the event stream as listen does; the caller reads or cancels the answer. */
const openStream = (server: RunningServer, demo: DemoCredentials, options: { readonly query?: string; readonly lastEventId?: string; readonly signal?: AbortSignal } = {}) => {
  const url = targetUrl(server.url, `/api/v1/events/stream${options.query ?? ""}`)
  return fetch(url, {
    headers: {
      accept: "text/event-stream",
      ...signedHeaders({ merchantKey: demo.merchant_key, apiKey: demo.api_key, clientSecret: demo.client_secret, environment: "sandbox" }, "GET", `${url.pathname}${url.search}`, ""),
      ...(options.lastEventId === undefined ? {} : { "last-event-id": options.lastEventId })
    },
    ...(options.signal === undefined ? {} : { signal: options.signal })
  })
}

/** Reads messages of an open stream until `count` events came (heartbeats are comments, never messages). */
const readEvents = async (response: Response, count: number) => {
  const events: Array<{ id: string | undefined; event: string | undefined; data: Record<string, unknown> }> = []
  for await (const message of sseMessages(response.body!)) {
    events.push({ id: message.id, event: message.event, data: JSON.parse(message.data) })
    if (events.length >= count) break
  }
  return events
}

/**
 * Issue 37's must-show: a developer runs `merchant-payments listen` (the built CLI, a child process)
 * against a host that refuses private webhook targets; `trigger payment.completed` (the built CLI) completes a sandbox payment; its event
 * reaches a receiver on localhost with the body and headers of a real delivery, which verify with
 * the standardwebhooks package and with the X-Signature rule, and the CLI says so in one line.
 */
export const cliListenSuite = (store: () => Readonly<Record<string, string>>) =>
  describe("merchant-payments listen", () => {
    let server: RunningServer
    let demo: DemoCredentials
    let client: MerchantClient
    const children: Array<ChildProcess> = []

    beforeAll(async () => {
      await ensureBuilt()
      // WEBHOOK_ALLOW_PRIVATE_TARGETS is left unset: off, as in production.
      server = await startServer(readHostConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: mkdtempSync(join(tmpdir(), "mp-listen-")), ...store() }))
      demo = server.demo!
      client = createMerchantClient({ baseUrl: server.url, merchantKey: demo.merchant_key, apiKey: demo.api_key, clientSecret: demo.client_secret, webhookSecret: demo.webhook_secret, environment: "sandbox" })
    }, 200_000)

    afterAll(async () => {
      for (const child of children) child.kill("SIGKILL")
      await server?.close()
    })

    /** What a developer exports once (README, "First five minutes"): the variables the CLI reads. */
    const cliEnv = () => ({
      PATH: process.env.PATH ?? "",
      PAYMENTS_URL: server.url,
      PAYMENTS_ENVIRONMENT: "sandbox",
      MERCHANT_KEY: demo.merchant_key,
      API_KEY: demo.api_key,
      CLIENT_SECRET: demo.client_secret
    })

    /** The built CLI run to its end; the host answers meanwhile, since it runs in this process. */
    const runCli = (args: ReadonlyArray<string>) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
        const run = spawn(process.execPath, [join(ROOT, "dist/client/cli/main.js"), ...args], { env: cliEnv() })
        let stdout = ""
        let stderr = ""
        run.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")))
        run.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
        run.on("error", reject)
        run.on("close", (status) => resolve({ status, stdout, stderr }))
      })

    const paidPayment = async (refTrx: string) => {
      const session = await client.initiatePayment({
        payment_amount: "12.50",
        currency_code: "USD",
        ref_trx: refTrx,
        success_redirect: "https://shop.example/ok",
        cancel_redirect: "https://shop.example/cancel",
        ipn_url: "https://shop.example/ipn"
      })
      await client.simulatePayment(session.info.trx_id, "success")
      return session.info.trx_id
    }

    it("forwards a triggered sandbox payment.completed to localhost, verifiable both ways, and prints a line for it", async () => {
      const receiver = await startLocalReceiver()
      const child = spawn(process.execPath, [join(ROOT, "dist/client/cli/main.js"), "listen", "--forward-to", receiver.url, "--events", "payment.*"], {
        env: cliEnv()
      })
      children.push(child)
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")))
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
      try {
        await waitFor(`listen to connect (stdout: ${stdout}, stderr: ${stderr})`, 20_000, () => (stdout.includes("Ready:") ? true : undefined))
        // `trigger`, the built CLI too: the payment is made and completed by the sandbox's own flows.
        const triggered = await runCli(["trigger", "payment.completed", "--json"])
        expect(triggered.status, triggered.stderr).toBe(0)
        const made = JSON.parse(triggered.stdout.trim().split("\n")[0]!) as { objects: Array<{ type: string; id: string }> }
        const trxId = made.objects.find((object) => object.type === "payment")!.id
        const hit = await waitFor("the forwarded event", 20_000, () => receiver.hits.find((one) => one.body.includes(trxId)))
        expect(JSON.parse(hit.body)).toMatchObject({ event: "payment.completed" })
        const eventId = header(hit.headers, "x-event-id")!
        expect(header(hit.headers, "webhook-id")).toBe(eventId)
        expect(header(hit.headers, "content-type")).toBe("application/json")
        expect(header(hit.headers, "x-environment")).toBe("sandbox")
        // The standardwebhooks package, as a receiver on the Standard Webhooks headers uses it.
        expect(() =>
          new Webhook(standardWebhookSecret(demo.webhook_secret)).verify(hit.body, {
            "webhook-id": header(hit.headers, "webhook-id")!,
            "webhook-timestamp": header(hit.headers, "webhook-timestamp")!,
            "webhook-signature": header(hit.headers, "webhook-signature")!
          })).not.toThrow()
        // The contract's X-Signature rule alone (no Standard Webhooks headers given to the check).
        expect(client.verifyWebhook({ rawBody: hit.body, signature: header(hit.headers, "x-signature"), environmentHeader: header(hit.headers, "x-environment") }))
          .toEqual({ valid: true, kind: "payment" })
        const line = await waitFor("the CLI's line", 10_000, () => stdout.split("\n").find((one) => one.includes(eventId)))
        expect(line).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d  payment\\.completed  ${eventId}  -> 200 OK \\(\\d+ ms\\)$`))
        // A triggered payment has no ipn_url and the merchant no endpoint: the host queued no delivery
        // at all; the event came to localhost through the stream alone.
        const events = await client.listEvents({ object_id: trxId })
        expect(events.data).toEqual([])
      } finally {
        child.kill("SIGINT")
        await waitFor("listen to stop on Ctrl-C", 10_000, () => (child.exitCode !== null ? true : undefined))
        await receiver.close()
      }
      expect(child.exitCode).toBe(0)
    }, 90_000)

    it("Last-Event-ID replays the retained events after it, in order; without it only new events come", async () => {
      const first = await paidPayment("resume-1")
      const second = await paidPayment("resume-2")
      const fresh = new AbortController()
      const live = await openStream(server, demo, { signal: fresh.signal })
      expect(live.status).toBe(200)
      expect(live.headers.get("content-type")).toContain("text/event-stream")
      // Resuming after the first payment's event gives the second's next.
      // From the start of the log: every retained event, in order, up to the second payment's.
      const log = await readEventsUntil(server, demo, "0", second)
      expect(log.map((event) => Number(event.id))).toEqual([...log.map((event) => Number(event.id))].sort((a, b) => a - b))
      expect(log.find((event) => event.data.object_id === first)?.data).toMatchObject({ type: "payment.completed", request: { headers: expect.objectContaining({ "x-signature": expect.any(String) }) } })
      const firstSeq = log.find((event) => event.data.object_id === first)!.id!
      const resumed = await readEvents(await openStream(server, demo, { lastEventId: firstSeq, query: "?types=payment.completed" }), 1)
      expect(resumed[0]!.data).toMatchObject({ object_id: second, type: "payment.completed" })
      expect(Number(resumed[0]!.id)).toBeGreaterThan(Number(firstSeq))
      // The stream opened before them without Last-Event-ID sends only what comes after it opened.
      const third = await paidPayment("resume-3")
      const next = await readEvents(live, 1)
      fresh.abort()
      expect(next[0]!.data.object_id).toBe(third)
    }, 60_000)

    it("refuses a bad pattern with 422, and a sixth open stream with 429 and Retry-After", async () => {
      const bad = await openStream(server, demo, { query: "?types=payment.*,paymnt.completed" })
      expect(bad.status).toBe(422)
      expect(JSON.stringify(await bad.json())).toContain("paymnt.completed")
      const held = new AbortController()
      const open = await Promise.all(Array.from({ length: 5 }, () => openStream(server, demo, { signal: held.signal })))
      expect(open.map((response) => response.status)).toEqual([200, 200, 200, 200, 200])
      const refused = await openStream(server, demo)
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
      expect((await refused.json() as { message: string }).message).toMatch(/already has 5 event streams open/)
      held.abort()
      // Closed streams give their slots back.
      await waitFor("a slot to free", 10_000, async () => {
        const again = await openStream(server, demo, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined)
        if (again === undefined) return undefined
        await again.body?.cancel().catch(() => undefined)
        return again.status === 200 ? true : undefined
      }, 200)
    }, 60_000)

    it("a host shutting down ends its open streams itself: the graceful drain is not held until its deadline", async () => {
      const other = await startServer(readHostConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: mkdtempSync(join(tmpdir(), "mp-listen-stop-")), ...store() }))
      // On PostgreSQL the store (and its demo merchant) is the first host's: its credentials open the stream.
      const stream = await openStream(other, other.demo ?? demo)
      expect(stream.status).toBe(200)
      const read = readEvents(stream, 1).catch(() => [])
      const started = Date.now()
      await other.close()
      // SHUTDOWN_GRACE_MS is 10 s: a stream that held the drain would take that long.
      expect(Date.now() - started).toBeLessThan(5_000)
      expect(await read).toEqual([])
    }, 60_000)
  })

/** Every retained payment.completed event up to the one of `until`'s payment. */
const readEventsUntil = async (server: RunningServer, demo: DemoCredentials, lastEventId: string, until: string) => {
  const controller = new AbortController()
  const response = await openStream(server, demo, { lastEventId, query: "?types=payment.completed", signal: controller.signal })
  const events: Array<{ id: string | undefined; data: Record<string, unknown> }> = []
  for await (const message of sseMessages(response.body!)) {
    const data = JSON.parse(message.data) as Record<string, unknown>
    events.push({ id: message.id, data })
    if (data.object_id === until) break
  }
  controller.abort()
  return events
}
