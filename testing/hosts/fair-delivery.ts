import { createServer, type Server, type Socket } from "node:net"
import { expect } from "vitest"
import { currentReceiverUrl, type Host, received, resetReceiver, waitFor } from "./child-hosts.js"
import { type Demo, merchantCall } from "./demo-fixtures.js"

/** A receiver that accepts connections and never answers: each attempt to it hangs until the sender gives up. */
export interface HungReceiver {
  readonly url: string
  /** The most connections it held open at once. */
  readonly mostOpen: () => number
  readonly accepted: () => number
  readonly close: () => Promise<void>
}

/** Connections open at once across several hung receivers: one merchant's share of the senders. */
export interface OpenTogether {
  open: number
  most: number
}

export const startHungReceiver = async (together: OpenTogether = { open: 0, most: 0 }): Promise<HungReceiver> => {
  const sockets = new Set<Socket>()
  let mostOpen = 0
  let accepted = 0
  const server: Server = createServer((socket) => {
    accepted++
    sockets.add(socket)
    mostOpen = Math.max(mostOpen, sockets.size)
    together.open++
    together.most = Math.max(together.most, together.open)
    socket.on("error", () => {})
    // Read (and drop) the request, never answering: a paused socket would never see the sender hang
    // up at its timeout, and would count as open for good.
    socket.resume()
    socket.on("close", () => {
      sockets.delete(socket)
      together.open--
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as { port: number }).port
  return {
    url: `http://127.0.0.1:${port}/ipn`,
    mostOpen: () => mostOpen,
    accepted: () => accepted,
    close: () => {
      for (const socket of sockets) socket.destroy()
      return new Promise((resolve) => server.close(() => resolve()))
    }
  }
}

/** `count` hung receivers of one merchant, each a target of its own (its own port). */
export interface HungReceivers {
  readonly receivers: ReadonlyArray<HungReceiver>
  /** The most connections they held open at once, all together. */
  readonly mostOpenTogether: () => number
  readonly close: () => Promise<void>
}

export const startHungReceivers = async (count: number): Promise<HungReceivers> => {
  const together: OpenTogether = { open: 0, most: 0 }
  const receivers = await Promise.all(Array.from({ length: count }, () => startHungReceiver(together)))
  return {
    receivers,
    mostOpenTogether: () => together.most,
    close: async () => {
      await Promise.all(receivers.map((receiver) => receiver.close()))
    }
  }
}

const paymentBody = (refTrx: string, ipnUrl: string) => ({
  payment_amount: 10, currency_code: "USD", ref_trx: refTrx, success_redirect: "https://shop.example/ok",
  cancel_redirect: "https://shop.example/cancel", ipn_url: ipnUrl
})

/** Initiates a sandbox payment with `ipnUrl` and pays it: its completion event is queued. */
const completePayment = async (host: Host, merchant: Demo, refTrx: string, ipnUrl: string): Promise<string> => {
  const initiated = await merchantCall(host, merchant, "POST", "/api/v1/initiate-payment", paymentBody(refTrx, ipnUrl))
  expect(initiated.status, initiated.text).toBe(200)
  const trxId: string = initiated.json.info.trx_id
  const paid = await merchantCall(host, merchant, "POST", `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome: "success" })
  expect(paid.status, paid.text).toBe(200)
  return trxId
}

const inBatches = async <A>(count: number, width: number, run: (index: number) => Promise<A>): Promise<Array<A>> => {
  const results: Array<A> = []
  for (let start = 0; start < count; start += width) {
    results.push(...await Promise.all(Array.from({ length: Math.min(width, count - start) }, (_, offset) => run(start + offset))))
  }
  return results
}

export interface FairnessOutcome {
  /** Milliseconds from each of B's payments being paid to its IPN arriving, slowest last. */
  readonly latenciesMs: ReadonlyArray<number>
  /** The most connections any one of A's receivers held open at once. */
  readonly hungMostOpen: number
}

/**
 * Issue 19's scenario, and issue 33's with many receivers: merchant A's receivers accept and never
 * answer, 200 of A's events are queued, spread over them in turn; then merchant B completes 20
 * payments whose receiver answers at once. Payments go to the hosts in turn. Resolves with how long
 * each of B's IPNs took.
 */
export const runFairnessScenario = async (
  hosts: ReadonlyArray<Host>,
  a: Demo,
  b: Demo,
  hung: ReadonlyArray<HungReceiver>
): Promise<FairnessOutcome> => {
  resetReceiver([])
  await inBatches(200, 10, (i) => completePayment(hosts[i % hosts.length]!, a, `hung-${i}`, hung[i % hung.length]!.url))
  // A's attempts are under way (and hanging) before B's payments come.
  await waitFor("A's first attempts to reach its hung receivers", 10_000, () => (hung.some((receiver) => receiver.accepted() > 0) ? true : undefined))
  const paidAt = new Map<string, number>()
  await inBatches(20, 5, async (i) => {
    const trxId = await completePayment(hosts[i % hosts.length]!, b, `fast-${i}`, `${currentReceiverUrl()}/ipn`)
    paidAt.set(trxId, Date.now())
  })
  const arrivals = await waitFor("B's 20 IPNs", 30_000, () => {
    const seen = new Map<string, number>()
    for (const request of received) {
      const trxId = (JSON.parse(request.text) as { readonly data: { readonly trx_id: string } }).data.trx_id
      if (paidAt.has(trxId) && !seen.has(trxId)) seen.set(trxId, request.at)
    }
    return seen.size === paidAt.size ? seen : undefined
  })
  const latenciesMs = [...paidAt].map(([trxId, at]) => arrivals.get(trxId)! - at).sort((x, y) => x - y)
  return { latenciesMs, hungMostOpen: Math.max(...hung.map((receiver) => receiver.mostOpen())) }
}
