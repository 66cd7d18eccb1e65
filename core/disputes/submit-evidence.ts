import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { gatewayCallee } from "../gateways/gateway-config.js"
import { GatewayRepository } from "../gateways/gateway-repository.js"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { exponentOfHeld } from "../money/currency-catalog.js"
import { toCurrencyString } from "../money/format.js"
import { PaymentRepository } from "../payments/payment-repository.js"
import { now, toIsoString } from "../shared/instant.js"
import { Transactor } from "../shared/transactor.js"
import { type Dispute, DisputeEvidenceOverdue, DisputeEvidenceRefused, DisputeNotFound, DisputeTransitionRefused } from "./dispute.js"
import { disputeMoved } from "./dispute-changes.js"
import { checkEvidence, type EvidenceInput } from "./dispute-evidence.js"
import { DisputeRepository } from "./dispute-repository.js"

/** Evidence is taken once, while the dispute waits for it and before its deadline. */
const refusalOf = (dispute: Dispute, at: bigint): Option.Option<DisputeTransitionRefused | DisputeEvidenceOverdue> =>
  dispute.status !== "needs_response"
    ? Option.some(new DisputeTransitionRefused({
      status: dispute.status,
      message: `This dispute is ${dispute.status}; evidence is taken only while it needs a response.`
    }))
    : at >= dispute.evidenceDueBy
    ? Option.some(new DisputeEvidenceOverdue({ message: `The evidence was due by ${toIsoString(dispute.evidenceDueBy)}; the network no longer takes it.` }))
    : Option.none()

/**
 * Sends the dispute's gateway the merchant's evidence, when its plugin takes evidence (a dispute with
 * no such gateway keeps the evidence on record only), and returns whether it was sent.
 */
const passOn = (dispute: Dispute, evidence: { readonly text: string; readonly files: ReadonlyArray<{ readonly name: string; readonly contentBase64: string }> }) =>
  Effect.gen(function*() {
    const payment = Option.getOrThrow(yield* (yield* PaymentRepository).findByTrxId(dispute.paymentTrxId))
    const gatewayId = dispute.gatewayId ?? payment.gatewayId
    if (gatewayId === null) return
    const gateway = yield* (yield* GatewayRepository).findById(gatewayId)
    if (Option.isNone(gateway)) return
    const { plugin, config, ref } = yield* gatewayCallee(gateway.value)
    if (!plugin.capabilities.disputeEvidence) return
    const report = yield* plugin.submitDisputeEvidence({
      trxId: payment.trxId,
      amount: toCurrencyString(dispute.amount, yield* exponentOfHeld(dispute.currency)),
      currency: dispute.currency,
      environment: dispute.environment,
      gateway: ref,
      config,
      disputeId: dispute.id,
      gatewayDisputeId: dispute.gatewayDisputeId,
      text: evidence.text,
      files: evidence.files.map((file) => ({ name: file.name, contentBase64: file.contentBase64 }))
    })
    if (report.status === "refused") return yield* new DisputeEvidenceRefused({ message: report.message ?? "The gateway refused the evidence." })
  })

/**
 * The merchant answers a dispute: the evidence is checked, passed on to the gateway, and kept with the
 * dispute, which moves to under_review. The gateway is asked before anything is written, outside the
 * transaction; the move is then conditional on the dispute still waiting, so two answers racing record one.
 */
export const submitDisputeEvidence = (scope: MerchantScope, id: string, input: EvidenceInput) =>
  Effect.gen(function*() {
    const evidence = yield* checkEvidence(input)
    const disputes = yield* DisputeRepository
    const found = yield* disputes.findScoped(scope.merchant.id, scope.environment, id)
    if (Option.isNone(found)) return yield* new DisputeNotFound()
    const refused = refusalOf(found.value, yield* now)
    if (Option.isSome(refused)) return yield* refused.value
    yield* passOn(found.value, evidence)
    return yield* Effect.flatMap(Transactor, ({ withTransaction }) =>
      withTransaction(Effect.gen(function*() {
        const current = Option.getOrThrow(yield* disputes.findForUpdate(id))
        const at = yield* now
        const late = refusalOf(current, at)
        if (Option.isSome(late)) return yield* late.value
        return yield* disputeMoved(current, { status: "under_review", evidence, at })
      })))
  })
