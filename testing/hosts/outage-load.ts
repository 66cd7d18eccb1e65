/** Signed initiate (and some simulated payments) from several clients at once, every answer recorded: for outage tests. */
import { expect } from "vitest"
import type { Host } from "./child-hosts.js"
import { type Demo, signedCall } from "./demo-fixtures.js"

export interface Recorded {
  readonly call: "initiate" | "simulate"
  /** 0: no HTTP answer at all (the host dropped the connection or timed out). */
  readonly status: number
  readonly retryAfter: string | null
  readonly json: any
  readonly text: string
  readonly trxId?: string
  /** What an initiate sent: the client's retry sends the same again. */
  readonly sent?: { readonly key: string; readonly body: unknown }
  /** The phase of the test when the call was sent. */
  readonly phase: string
}

export interface Load {
  readonly calls: Array<Recorded>
  /** Names the phase calls sent from now on belong to. */
  readonly enter: (phase: string) => void
  /** Stops sending and waits for every client's last call. */
  readonly finish: () => Promise<void>
}

/** One signed POST with an Idempotency-Key, as the kit's client sends every POST. */
export const send = async (host: Host, demo: Demo, path: string, body: unknown, key: string) => {
  try {
    const reply = await signedCall(host.url, demo, "POST", path, { body, headers: { "idempotency-key": key } })
    return { status: reply.status, retryAfter: reply.headers.get("retry-after"), json: reply.json, text: reply.text }
  } catch (error) {
    return { status: 0, retryAfter: null, json: undefined, text: String(error) }
  }
}

/**
 * `clients` loops, each sending signed initiate-payment until finished; every third payment a client
 * made is paid at once through the sandbox, so the wallets and the ledger move during the outage too.
 */
export const startLoad = (host: Host, demo: Demo, clients: number, ipnUrl: string): Load => {
  const calls: Array<Recorded> = []
  let phase = "before"
  let done = false
  const client = async (c: number) => {
    for (let i = 0; !done; i++) {
      const sentIn = phase
      const sent = {
        key: `initiate-c${c}-${i}`,
        body: {
          payment_amount: 10, currency_code: "USD", ref_trx: `c${c}-${i}`, success_redirect: "https://shop.example/ok",
          cancel_redirect: "https://shop.example/cancel", ipn_url: ipnUrl
        }
      }
      const made = await send(host, demo, "/api/v1/initiate-payment", sent.body, sent.key)
      const trxId = made.status === 200 ? String(made.json.info.trx_id) : undefined
      calls.push({ call: "initiate", phase: sentIn, sent, ...made, ...(trxId === undefined ? {} : { trxId }) })
      if (trxId !== undefined && i % 3 === 0) {
        const payIn = phase
        const paid = await send(host, demo, `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome: "success" }, `pay-c${c}-${i}`)
        calls.push({ call: "simulate", phase: payIn, trxId, ...paid })
      }
    }
  }
  const running = Promise.all(Array.from({ length: clients }, (_, c) => client(c)))
  return {
    calls,
    enter: (next) => {
      phase = next
    },
    finish: async () => {
      done = true
      await running
    }
  }
}

/** A 503 as the outage must answer it: Retry-After, and the 7.3 error body. */
export const expectOutageAnswer = (call: Recorded) => {
  expect(call.retryAfter, call.text).toBe("2")
  expect(call.json, call.text).toEqual({
    success: false,
    message: "The service is temporarily unavailable; retry shortly.",
    error_code: "SERVICE_UNAVAILABLE",
    errors: {},
    timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
    request_id: expect.any(String)
  })
}
