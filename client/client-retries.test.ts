import { beforeAll, describe, expect, it } from "vitest"
import { freePort, sleep } from "../testing/hosts/child-hosts.js"
import { MerchantApiError, MerchantTransportError } from "./client-errors.js"
import { checkoutAddresses, type ClientHost, demoClient, startClientHost } from "./testing/client-hosts.js"
import { errorResponse, type RecordedAttempt, recordingFetch } from "./testing/recording-fetch.js"
import { startSilentServer } from "./testing/silent-server.js"
import { childHostSuite } from "../testing/hosts/child-host-suite.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const payment = (refTrx: string) => ({ payment_amount: "10", currency_code: "USD", ref_trx: refTrx, ...checkoutAddresses("https://shop.example") })
const keysOf = (attempts: ReadonlyArray<RecordedAttempt>) => attempts.map((attempt) => attempt.headers["idempotency-key"])
const gapsOf = (attempts: ReadonlyArray<RecordedAttempt>) => attempts.slice(1).map((attempt, i) => attempt.startedAt - attempts[i]!.endedAt!)

/** Retries against the built standalone host: what is repeated, after how long, and with which key. */
describe("merchant client retries", () => {
  const scratch = childHostSuite("mp-client-retries-", { receiver: false })
  let limited: ClientHost
  let open: ClientHost
  beforeAll(async () => {
    ;[limited, open] = await Promise.all([startClientHost(scratch(), "limited", { RATE_LIMIT_PER_MINUTE: "2" }), startClientHost(scratch(), "open")])
  }, 180_000)

  it("waits out a real 429's Retry-After, then repeats the POST freshly signed with the same Idempotency-Key", async () => {
    // The limit's window is the wall-clock minute: one about to close could reopen before the call under test.
    const second = new Date().getUTCSeconds()
    if (second >= 55) await sleep((61 - second) * 1000)
    const probe = demoClient(limited, { retries: 0 })
    let refused: unknown
    for (let i = 0; i < 5 && refused === undefined; i++) refused = await probe.siteInfo().then(() => undefined, (error: unknown) => error)
    expect(refused).toBeInstanceOf(MerchantApiError)
    expect(refused).toMatchObject({ status: 429, errorCode: "RATE_LIMITED", attempts: 1 })
    expect((refused as MerchantApiError).retryAfterMs).toBeGreaterThanOrEqual(1_000)

    const recorded = recordingFetch()
    const session = await demoClient(limited, { fetch: recorded.fetch }).initiatePayment(payment("limited-1"))
    expect(session.info.ref_trx).toBe("limited-1")
    const [first, retried] = recorded.attempts
    expect(recorded.attempts.map((attempt) => attempt.status)).toEqual([429, 200])
    expect(first!.headers["idempotency-key"]).toMatch(UUID)
    expect(retried!.headers["idempotency-key"]).toBe(first!.headers["idempotency-key"])
    expect(retried!.body).toBe(first!.body)
    expect(retried!.startedAt - first!.endedAt!).toBeGreaterThanOrEqual(Number(first!.retryAfter) * 1000 - 20)
    expect(Number(retried!.headers["x-timestamp"])).toBeGreaterThan(Number(first!.headers["x-timestamp"]))
    expect(retried!.headers["x-signature"]).not.toBe(first!.headers["x-signature"])
  }, 120_000)

  it("repeats a 503 with full-jitter backoff and the same key, and gives the 503 up once the retries are spent", async () => {
    const unavailable = () => errorResponse(503, "SERVICE_UNAVAILABLE", "Checkout creation failed for now.")
    const recorded = recordingFetch([unavailable, unavailable, "pass"])
    // The jitter's top draw: the waits are then the ceilings, 249 and 499 ms.
    const client = demoClient(open, { fetch: recorded.fetch, backoff: { random: () => 0.999 } })
    const session = await client.initiatePayment(payment("unavailable-1"))
    expect(await client.verifyPayment(session.info.trx_id)).toMatchObject({ status: "pending", amount: "10" })
    expect(recorded.attempts.slice(0, 3).map((attempt) => attempt.status)).toEqual([503, 503, 200])
    expect(new Set(keysOf(recorded.attempts.slice(0, 3))).size).toBe(1)
    const [firstWait, secondWait] = gapsOf(recorded.attempts.slice(0, 3))
    expect(firstWait).toBeGreaterThanOrEqual(240)
    expect(firstWait).toBeLessThan(450)
    expect(secondWait).toBeGreaterThanOrEqual(490)
    expect(secondWait).toBeLessThan(800)

    const always = recordingFetch([unavailable, unavailable, unavailable])
    const refused = await demoClient(open, { fetch: always.fetch, retries: 1, backoff: { random: () => 0 } })
      .initiatePayment(payment("unavailable-2"))
      .catch((error: unknown) => error)
    expect(refused).toMatchObject({ status: 503, errorCode: "SERVICE_UNAVAILABLE", attempts: 2 })
    expect(always.attempts).toHaveLength(2)
  })

  it("repeats a 409 that carries Retry-After (the same key still running) and gets the first answer", async () => {
    const recorded = recordingFetch([() => errorResponse(409, "IDEMPOTENCY_CONFLICT", "Still processing.", { "retry-after": "1" }), "pass"])
    const session = await demoClient(open, { fetch: recorded.fetch }).initiatePayment(payment("in-flight-1"))
    expect(session.info.ref_trx).toBe("in-flight-1")
    expect(recorded.attempts.map((attempt) => attempt.status)).toEqual([409, 200])
    expect(gapsOf(recorded.attempts)[0]).toBeGreaterThanOrEqual(980)
  })

  it("times out each attempt against a host that never answers, then fails with MerchantTransportError", async () => {
    const silent = await startSilentServer()
    try {
      const started = Date.now()
      const client = demoClient(open, { baseUrl: silent.url, timeoutMs: 200, retries: 2, backoff: { random: () => 0 } })
      const failed = await client.initiatePayment(payment("silent-1")).catch((error: unknown) => error)
      expect(failed).toBeInstanceOf(MerchantTransportError)
      expect(failed).toMatchObject({ reason: "timeout", attempts: 3, method: "POST", path: "/api/v1/initiate-payment" })
      expect(Date.now() - started).toBeGreaterThanOrEqual(3 * 200 - 10)
      expect(silent.requests).toHaveLength(3)
      const keys = silent.requests.map((request) => request.headers["idempotency-key"])
      expect(new Set(keys).size).toBe(1)
      expect((failed as MerchantTransportError).idempotencyKey).toBe(keys[0])
    } finally {
      await silent.close()
    }
  })

  it("after an answer lost on the way back, the retry gets the original answer: the payment is created once", async () => {
    const recorded = recordingFetch(["lose-answer", "pass"])
    const session = await demoClient(open, { fetch: recorded.fetch, timeoutMs: 1_500 }).initiatePayment(payment("lost-1"))
    const lost = JSON.parse(recorded.attempts[0]!.lostAnswer!)
    expect(session.info.trx_id).toBe(lost.info.trx_id)
    expect(recorded.attempts[0]!.endedAt! - recorded.attempts[0]!.startedAt).toBeGreaterThanOrEqual(1_490)
    expect(new Set(keysOf(recorded.attempts)).size).toBe(1)
  })

  it("fails with reason network where nothing listens, and a caller's abort ends the wait between attempts", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`
    await expect(demoClient(open, { baseUrl: closed, retries: 1, backoff: { random: () => 0 } }).siteInfo())
      .rejects.toMatchObject({ name: "MerchantTransportError", reason: "network", attempts: 2 })

    const busy = recordingFetch(Array.from({ length: 5 }, () => () => errorResponse(503, "SERVICE_UNAVAILABLE", "Busy.")))
    const controller = new AbortController()
    const client = demoClient(open, { fetch: busy.fetch, backoff: { baseMs: 5_000, random: () => 0.999 } })
    const started = Date.now()
    setTimeout(() => controller.abort(new Error("caller gave up")), 100)
    await expect(client.siteInfo({ signal: controller.signal })).rejects.toThrow("caller gave up")
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(busy.attempts).toHaveLength(1)
  })
})
