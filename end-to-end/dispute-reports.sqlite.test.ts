import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, ManagedRuntime, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { acceptDisputeReport } from "../core/disputes/gateway-disputes.js"
import { DisputeRepository } from "../core/disputes/dispute-repository.js"
import { GatewayRepository } from "../core/gateways/gateway-repository.js"
import type { Gateway } from "../core/gateways/gateway.js"
import { trialBalance } from "../core/ledger/trial-balance.js"
import { createMerchant, replaceCurrencies } from "../core/merchants/merchant-admin.js"
import type { Merchant } from "../core/merchants/merchant.js"
import { submitDisputeEvidence } from "../core/disputes/submit-evidence.js"
import { CheckoutAttempts } from "../core/payments/checkout-attempts.js"
import { finishPayment } from "../core/payments/finish-payment.js"
import { initiatePayment } from "../core/payments/initiate-payment.js"
import { now } from "../core/shared/instant.js"
import { createWallet } from "../core/wallets/wallet-admin.js"
import { WalletRepository } from "../core/wallets/wallet-repository.js"
import { kitLayer } from "../hosts/kit-layer.js"
import { testKitConfig } from "./suites/test-kit-config.js"

/** A gateway's dispute reports through the core: heard once per gateway id, in any order, only from the payment's gateway. */
describe("gateway dispute reports", () => {
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  const kit = {
    run: <A, E>(effect: Effect.Effect<A, E, any>): Promise<A> => runtime.runPromise(effect as Effect.Effect<A, E, never>)
  }
  let gateway: Gateway
  let other: Gateway
  let trxId: string
  let walletId: number
  let merchant: Merchant

  beforeAll(async () => {
    runtime = ManagedRuntime.make(kitLayer(testKitConfig({ kind: "sqlite", filename: join(mkdtempSync(join(tmpdir(), "mp-dispute-reports-")), "store.db") })))
    const made = await kit.run(Effect.gen(function*() {
      const merchant = yield* createMerchant({ name: "Reported shop", status: "approved", disputeFee: { kind: "string", value: "2" } })
      yield* replaceCurrencies(merchant.id, ["USD"])
      const wallet = yield* createWallet(merchant.id, "USD", "production")
      const gateways = yield* GatewayRepository
      const gateway = yield* gateways.create({ plugin: "sandbox", name: "Cards", currency: "USD", method: "reported-card", type: "automatic", active: true, config: {} })
      const other = yield* gateways.create({ plugin: "sandbox", name: "Other", currency: "USD", method: "reported-other", type: "automatic", active: true, config: {} })
      const session = yield* initiatePayment({ merchant, environment: "production" }, {
        amount: { kind: "string", value: "50.00" }, currency: "USD", refTrx: "reported-1",
        successRedirect: "https://shop.example/ok", cancelRedirect: "https://shop.example/no", ipnUrl: "https://shop.example/ipn",
        description: null, customerName: null, customerEmail: null, keywords: []
      })
      yield* (yield* CheckoutAttempts).begin(session.payment.trxId, gateway.id, yield* now, null)
      yield* finishPayment(session.payment.trxId, { outcome: "paid", gatewayId: gateway.id })
      return { gateway, other, trxId: session.payment.trxId, walletId: wallet.id, merchant }
    }))
    gateway = made.gateway
    other = made.other
    trxId = made.trxId
    walletId = made.walletId
    merchant = made.merchant
  })
  afterAll(() => runtime.dispose())

  const balance = () => kit.run(Effect.map(Effect.flatMap(WalletRepository, (wallets) => wallets.findById(walletId as never)), (wallet) => Option.getOrThrow(wallet).balance))

  it("opens once however often it is delivered, moves by the gateway's updates, closes once, and keeps the books at zero", async () => {
    const start = await balance()
    const opened = { event: "opened" as const, gatewayDisputeId: "du_1", trxId, amount: "20.00", currency: "USD", reason: "fraudulent", evidenceDueBy: "2031-01-01T00:00:00Z" }
    const first = await kit.run(acceptDisputeReport(gateway, opened))
    const again = await kit.run(acceptDisputeReport(gateway, opened))
    expect(first._tag === "Disputed" && again._tag === "Disputed" && first.dispute.id === again.dispute.id).toBe(true)
    expect(await balance()).toBe(start - 2_200_000_000n)
    const reviewed = await kit.run(acceptDisputeReport(gateway, { ...opened, event: "updated", status: "under_review" }))
    expect(reviewed._tag === "Disputed" && reviewed.dispute.status).toBe("under_review")
    const closed = { ...opened, event: "closed" as const, outcome: "won" as const }
    await kit.run(acceptDisputeReport(gateway, closed))
    await kit.run(acceptDisputeReport(gateway, closed))
    expect(await balance()).toBe(start - 200_000_000n)
    const disputes = await kit.run(Effect.flatMap(DisputeRepository, (repository) => repository.list({ limit: 10 })))
    expect(disputes.filter((each) => each.paymentTrxId === trxId).map((each) => [each.status, each.evidenceDueBy > 0n])).toEqual([["won", true]])
    expect((await kit.run(trialBalance("production", "USD"))).sum).toBe(0n)
  })

  it("opens a dispute first heard of by its close, and ignores one from a gateway that did not take the payment", async () => {
    const late = await kit.run(acceptDisputeReport(gateway, { event: "closed", gatewayDisputeId: "du_2", trxId, reason: "duplicate", outcome: "lost" }))
    // No amount reported: all that is left of the payment, the won dispute holding none of it.
    expect(late._tag === "Disputed" && [late.dispute.status, late.dispute.amount]).toEqual(["lost", 5_000_000_000n])
    const stranger = await kit.run(acceptDisputeReport(other, { event: "opened", gatewayDisputeId: "du_3", trxId }))
    expect(stranger).toEqual({ _tag: "Ignored", reason: "not begun with this gateway" })
    expect((await kit.run(trialBalance("production", "USD"))).sum).toBe(0n)
  })

  it("takes no evidence past the network's deadline: 409's refusal, the dispute still waiting", async () => {
    const opened = await kit.run(acceptDisputeReport(gateway, { event: "opened", gatewayDisputeId: "du_4", trxId, amount: "1.00", evidenceDueBy: "2020-01-01T00:00:00Z" }))
    const dispute = opened._tag === "Disputed" ? opened.dispute : undefined
    expect(dispute?.status).toBe("needs_response")
    const late = await kit.run(Effect.flip(submitDisputeEvidence({ merchant, environment: "production" }, dispute!.id, { text: "Too late?", files: [] })))
    expect(late).toMatchObject({ _tag: "DisputeEvidenceOverdue", message: "The evidence was due by 2020-01-01T00:00:00.000000Z; the network no longer takes it." })
  })
})
