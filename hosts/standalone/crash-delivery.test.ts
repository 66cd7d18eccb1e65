/**
 * Crash safety of webhook delivery, end to end against the built standalone host in child processes:
 * a payment's event is committed with the payment, so SIGKILL (no shutdown hooks, no flush) loses
 * nothing: the next host on the same store delivers it, once, signed, with the same event id.
 *
 * Needs `npm run build` (run once in beforeAll) and loopback networking.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { createHmac } from "node:crypto"
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import { createServer as createNetServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const ROOT = fileURLToPath(new URL("../..", import.meta.url))
const MAIN = join("dist", "hosts", "standalone", "main.js")

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Polls `check` until it returns a value other than undefined; fails with `what` after `timeoutMs`. */
const waitFor = async <A>(what: string, timeoutMs: number, check: () => A | undefined | Promise<A | undefined>, intervalMs = 50): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await sleep(intervalMs)
  }
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createNetServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

// ---------------------------------------------------------------------------------------------
// The loopback webhook receiver

interface Received {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly rawBody: Buffer
  readonly text: string
  /** What the receiver answered. */
  readonly answered: number
  readonly at: number
}

const received: Array<Received> = []
/** Status codes to answer with, in order; 200 once it runs out. */
let answers: Array<number> = []
let receiver: Server | undefined
let receiverUrl = ""

const startReceiver = () =>
  new Promise<void>((resolve, reject) => {
    const server = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const rawBody = Buffer.concat(chunks)
        const answered = answers.shift() ?? 200
        received.push({
          method: request.method ?? "",
          path: request.url ?? "",
          headers: request.headers,
          rawBody,
          text: rawBody.toString("utf8"),
          answered,
          at: Date.now()
        })
        response.writeHead(answered, { "content-type": "text/plain" }).end(answered === 200 ? "ok" : "try again")
      })
    })
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      if (typeof address !== "object" || address === null) return reject(new Error("receiver has no port"))
      receiver = server
      receiverUrl = `http://127.0.0.1:${address.port}`
      resolve()
    })
  })

const resetReceiver = (statuses: Array<number>) => {
  received.length = 0
  answers = [...statuses]
}

const describeReceived = () =>
  JSON.stringify(received.map((r) => ({ method: r.method, path: r.path, answered: r.answered, eventId: r.headers["x-event-id"] })))

// ---------------------------------------------------------------------------------------------
// Host processes

interface Host {
  readonly url: string
  readonly child: ChildProcess
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>
  /** What the host printed so far (stdout and stderr, interleaved), for failure messages. */
  readonly output: () => string
}

const running = new Set<Host>()

/** A bare environment: nothing from the caller's shell (DATABASE_URL, MASTER_KEY...) leaks in. */
const baseEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {}
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG", "TZ", "SYSTEMROOT"]) {
    const value = process.env[name]
    if (value !== undefined) env[name] = value
  }
  return env
}

const startHost = async (dataDir: string, webhookEnv: Readonly<Record<string, string>>): Promise<Host> => {
  const port = await freePort()
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(),
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DEMO: "true",
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    ...webhookEnv
  }
  const child = spawn(process.execPath, [MAIN, "serve"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-20_000)
  }
  child.stdout?.on("data", keep)
  child.stderr?.on("data", keep)
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }))
  })
  const host: Host = { url: `http://127.0.0.1:${port}`, child, exited, output: () => output }
  running.add(host)
  void exited.then(() => running.delete(host))

  let gone: { code: number | null; signal: NodeJS.Signals | null } | undefined
  void exited.then((status) => {
    gone = status
  })
  await waitFor(`the host on port ${port} to answer GET /healthz with 200`, 30_000, async () => {
    if (gone !== undefined) {
      throw new Error(`the host exited during start-up (code ${gone.code}, signal ${gone.signal}):\n${output}`)
    }
    try {
      const response = await fetch(`${host.url}/healthz`, { signal: AbortSignal.timeout(2_000) })
      await response.arrayBuffer()
      return response.status === 200 ? true : undefined
    } catch {
      return undefined
    }
  }, 100)
  return host
}

const waitExit = (host: Host, ms: number) =>
  Promise.race([host.exited, sleep(ms).then(() => undefined)])

/** SIGKILL: no shutdown hook, no flush, no lease release runs. */
const crash = async (host: Host) => {
  host.child.kill("SIGKILL")
  const status = await waitExit(host, 10_000)
  if (status === undefined) throw new Error("the host did not exit within 10 s of SIGKILL")
  return status
}

/** SIGTERM, then SIGKILL if it has not gone after 5 s. Never throws. */
const stop = async (host: Host) => {
  if (host.child.exitCode !== null || host.child.signalCode !== null) return
  host.child.kill("SIGTERM")
  if ((await waitExit(host, 5_000)) !== undefined) return
  host.child.kill("SIGKILL")
  await waitExit(host, 5_000)
}

const stopAll = async () => {
  await Promise.all([...running].map(stop))
}

/** Last resort if the test process itself goes away: no host outlives it. */
const killSurvivors = () => {
  for (const host of running) host.child.kill("SIGKILL")
}

// ---------------------------------------------------------------------------------------------
// Talking to a host

interface Demo {
  readonly merchant_id: number
  readonly merchant_key: string
  readonly api_key: string
  readonly client_secret: string
  readonly webhook_secret: string
}

const readDemo = (dataDir: string): Demo => JSON.parse(readFileSync(join(dataDir, "demo-credentials.json"), "utf8")) as Demo
const readAdminToken = (dataDir: string): string => readFileSync(join(dataDir, "admin.token"), "utf8").trim()

interface Answer {
  readonly status: number
  readonly text: string
  readonly json: any
}

const answer = async (response: Response): Promise<Answer> => {
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, text, json }
}

/** A merchant API call signed as spec 5 says: hex HMAC-SHA256 of `<ts>.<METHOD>.<path>.<raw body>`. */
const merchantCall = async (host: Host, demo: Demo, method: "GET" | "POST", path: string, body?: unknown): Promise<Answer> => {
  const raw = body === undefined ? "" : JSON.stringify(body)
  const timestamp = String(Math.floor(Date.now() / 1000))
  const signature = createHmac("sha256", demo.client_secret).update(`${timestamp}.${method}.${path}.${raw}`).digest("hex")
  const response = await fetch(host.url + path, {
    method,
    headers: {
      "content-type": "application/json",
      "x-environment": "sandbox",
      "x-merchant-key": demo.merchant_key,
      "x-api-key": demo.api_key,
      "x-timestamp": timestamp,
      "x-signature": `sha256=${signature}`
    },
    body: method === "GET" ? null : raw,
    signal: AbortSignal.timeout(15_000)
  })
  return answer(response)
}

/** Initiates a sandbox payment whose IPN goes to the receiver, pays it, and checks it verifies as success. */
const completedPayment = async (host: Host, demo: Demo, refTrx: string): Promise<string> => {
  const initiated = await merchantCall(host, demo, "POST", "/api/v1/initiate-payment", {
    payment_amount: 100,
    currency_code: "USD",
    ref_trx: refTrx,
    success_redirect: "https://example.com/ok",
    cancel_redirect: "https://example.com/c",
    ipn_url: `${receiverUrl}/ipn`
  })
  expect(initiated.status, initiated.text).toBe(200)
  const trxId: string = initiated.json.info.trx_id
  expect(trxId).toMatch(/\S/)

  const paid = await merchantCall(host, demo, "POST", `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome: "success" })
  expect(paid.status, paid.text).toBe(200)

  const verified = await merchantCall(host, demo, "GET", `/api/v1/verify-payment/${trxId}`)
  expect(verified.status, verified.text).toBe(200)
  expect(verified.json.status).toBe("success")
  expect(verified.json.trx_id).toBe(trxId)
  return trxId
}

interface DeliveryJson {
  readonly id: string
  readonly event: string
  readonly url: string
  readonly status: string
  readonly attempts: number
  readonly last_status_code: number | null
  readonly next_attempt_at: string | null
}

const adminGet = async (host: Host, token: string, path: string): Promise<Answer> =>
  answer(await fetch(`${host.url}/admin/v1${path}`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(15_000) }))

/** The merchant's one delivery, as the admin log shows it. */
const onlyDelivery = async (host: Host, token: string, merchantId: number): Promise<DeliveryJson> => {
  const listed = await adminGet(host, token, `/webhook-deliveries?merchant_id=${merchantId}`)
  expect(listed.status, listed.text).toBe(200)
  const deliveries = listed.json.data as ReadonlyArray<DeliveryJson>
  expect(deliveries, listed.text).toHaveLength(1)
  return deliveries[0]!
}

const hmacHex = (secret: string, body: Buffer) => createHmac("sha256", secret).update(body).digest("hex")

/** What every delivery of the payment's event must look like. */
const expectSignedCompletion = (request: Received, demo: Demo, trxId: string) => {
  expect(request.method).toBe("POST")
  expect(request.path).toBe("/ipn")
  expect(request.headers["content-type"]).toMatch(/^application\/json(;|$)/)
  expect(request.headers["x-environment"]).toBe("sandbox")
  expect(request.headers["x-event-id"]).toMatch(/\S/)
  // Exactly the bare lower-case hex HMAC of the bytes received, with the demo's webhook secret.
  expect(request.headers["x-signature"]).toBe(hmacHex(demo.webhook_secret, request.rawBody))
  const body = JSON.parse(request.text)
  expect(body.event).toBe("payment.completed")
  expect(body.status).toBe("completed")
  expect(body.data.trx_id).toBe(trxId)
  expect(body.data.amount).toBe(100)
  expect(request.text).toContain('"amount":100,')
}

// ---------------------------------------------------------------------------------------------

let scratch = ""

describe("standalone host: webhooks survive SIGKILL", () => {
  beforeAll(async () => {
    process.on("exit", killSurvivors)
    const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, encoding: "utf8", timeout: 110_000 })
    if (build.error !== undefined || build.status !== 0) {
      throw new Error(
        `npm run build failed (status ${build.status}, signal ${build.signal}${build.error ? `, ${build.error.message}` : ""}):\n${build.stdout}\n${build.stderr}`
      )
    }
    scratch = mkdtempSync(join(tmpdir(), "mp-crash-delivery-"))
    await startReceiver()
  }, 120_000)

  afterAll(async () => {
    await stopAll()
    process.off("exit", killSurvivors)
    if (receiver !== undefined) {
      const closing = receiver
      await new Promise<void>((resolve) => {
        closing.close(() => resolve())
        closing.closeAllConnections()
      })
    }
    if (scratch !== "") rmSync(scratch, { recursive: true, force: true })
  }, 30_000)

  it("delivers, once and signed, a payment.completed event whose host was SIGKILLed right after the payment", async () => {
    resetReceiver([])
    const dataDir = join(scratch, "completed")
    mkdirSync(dataDir)
    let hostA: Host | undefined
    let hostB: Host | undefined
    try {
      // Host A: its dispatcher's start-up pass runs, then it sleeps for 10 minutes.
      hostA = await startHost(dataDir, { WEBHOOK_POLL_INTERVAL_MS: "600000" })
      const demo = readDemo(dataDir)
      const token = readAdminToken(dataDir)
      const trxId = await completedPayment(hostA, demo, "crash-1")

      // The event is committed with the payment and not yet attempted.
      const queued = await onlyDelivery(hostA, token, demo.merchant_id)
      expect(queued).toMatchObject({ event: "payment.completed", status: "pending", attempts: 0, url: `${receiverUrl}/ipn` })

      const killed = await crash(hostA)
      expect(killed.signal).toBe("SIGKILL")
      expect(received, "host A sent the webhook before it was killed").toHaveLength(0)

      // Host B: same store, same master key; its dispatcher finds the event due.
      hostB = await startHost(dataDir, { WEBHOOK_POLL_INTERVAL_MS: "100" })
      await waitFor("host B to deliver the webhook", 15_000, () => (received.length >= 1 ? true : undefined))
      await sleep(1_500)
      expect(received, `delivered more than once: ${describeReceived()}`).toHaveLength(1)

      const delivered = received[0]!
      expectSignedCompletion(delivered, demo, trxId)
      expect(JSON.parse(delivered.text).data.ref_trx).toBe("crash-1")
      expect(delivered.headers["x-event-id"]).toBe(queued.id)

      const logged = await onlyDelivery(hostB, token, demo.merchant_id)
      expect(logged).toMatchObject({ id: queued.id, status: "delivered", attempts: 1, last_status_code: 200 })
    } catch (error) {
      // The hosts' own words explain most failures here.
      for (const [name, host] of [["A", hostA], ["B", hostB]] as const) {
        if (host !== undefined) console.error(`--- host ${name} output ---\n${host.output()}`)
      }
      throw error
    } finally {
      await Promise.all([hostA, hostB].map((host) => (host === undefined ? undefined : stop(host))))
    }
  }, 90_000)

  it("a webhook retried after a failure survives a kill between attempts", async () => {
    const retryDelayMs = 1_500
    resetReceiver([500])
    const dataDir = join(scratch, "retried")
    mkdirSync(dataDir)
    const webhookEnv = { WEBHOOK_POLL_INTERVAL_MS: "100", WEBHOOK_RETRY_DELAYS_MS: String(retryDelayMs) }
    let hostA: Host | undefined
    let hostB: Host | undefined
    try {
      hostA = await startHost(dataDir, webhookEnv)
      const demo = readDemo(dataDir)
      const token = readAdminToken(dataDir)
      const trxId = await completedPayment(hostA, demo, "crash-2")

      // The first attempt is answered 500 ...
      await waitFor("host A's first attempt", 15_000, () => (received.length >= 1 ? true : undefined))
      // ... and recorded: the lease released, the retry scheduled. Kill it now, before the retry is due.
      const first = await waitFor("host A to record the failed attempt", 10_000, async () => {
        const delivery = await onlyDelivery(hostA!, token, demo.merchant_id)
        return delivery.attempts === 1 ? delivery : undefined
      }, 20)
      await crash(hostA)
      const killedAt = Date.now()
      console.log(`MARGIN killed ${killedAt - received[0]!.at} ms after first attempt`)
      expect(first).toMatchObject({ status: "pending", attempts: 1, last_status_code: 500 })
      expect(first.next_attempt_at).not.toBeNull()
      expect(
        received,
        `host A made its retry before it was killed (${killedAt - received[0]!.at} ms after the first attempt): the retry delay is too short for this machine`
      ).toHaveLength(1)

      hostB = await startHost(dataDir, webhookEnv)
      await waitFor("host B's retry", 15_000, () => (received.length >= 2 ? true : undefined))
      console.log(`GAP retry ${received[1]!.at - received[0]!.at} ms`)
      await sleep(1_500)
      expect(received, `unexpected attempts: ${describeReceived()}`).toHaveLength(2)

      const [failed, retried] = [received[0]!, received[1]!]
      expect([failed.answered, retried.answered]).toEqual([500, 200])
      expectSignedCompletion(failed, demo, trxId)
      expectSignedCompletion(retried, demo, trxId)
      expect(retried.headers["x-event-id"]).toBe(failed.headers["x-event-id"])
      expect(retried.headers["x-event-id"]).toBe(first.id)
      expect(retried.rawBody.equals(failed.rawBody)).toBe(true)
      // The retry waited for its due time, though another host made it.
      expect(retried.at - failed.at).toBeGreaterThanOrEqual(retryDelayMs - 50)

      const logged = await onlyDelivery(hostB, token, demo.merchant_id)
      expect(logged).toMatchObject({ id: first.id, status: "delivered", attempts: 2, last_status_code: 200 })
      const detail = await adminGet(hostB, token, `/webhook-deliveries/${encodeURIComponent(first.id)}`)
      expect(detail.status, detail.text).toBe(200)
      expect(detail.json.attempt_log.map((a: { attempt: number; status_code: number | null }) => [a.attempt, a.status_code])).toEqual([
        [1, 500],
        [2, 200]
      ])
    } catch (error) {
      for (const [name, host] of [["A", hostA], ["B", hostB]] as const) {
        if (host !== undefined) console.error(`--- host ${name} output ---\n${host.output()}`)
      }
      throw error
    } finally {
      await Promise.all([hostA, hostB].map((host) => (host === undefined ? undefined : stop(host))))
    }
  }, 90_000)
})
