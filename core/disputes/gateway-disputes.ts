import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { Gateway } from "../gateways/gateway.js"
import type { DisputeReport } from "../gateways/plugin-disputes.js"
import { exponentOfHeld } from "../money/currency-catalog.js"
import { parseAmount } from "../money/parse.js"
import { CheckoutAttempts } from "../payments/checkout-attempts.js"
import { fromIsoString, now } from "../shared/instant.js"
import { Transactor } from "../shared/transactor.js"
import { type Dispute, isOpen } from "./dispute.js"
import { disputeMoved } from "./dispute-changes.js"
import { DisputeRepository } from "./dispute-repository.js"
import { closeOpenDispute } from "./close-dispute.js"
import { lockedForDispute, openOnPayment, undisputedRest } from "./open-dispute.js"

/** What the core made of a gateway's dispute report. */
export type DisputeVerdict =
  | { readonly _tag: "Disputed"; readonly dispute: Dispute }
  | { readonly _tag: "Ignored"; readonly reason: string }

const ignored = (reason: string): DisputeVerdict => ({ _tag: "Ignored", reason })

/**
 * The dispute the report names, opened now if this is the first the kit hears of it (an update or
 * close may arrive first). A gateway's dispute is a fact: it is recorded whatever the wallet holds,
 * for the amount the gateway took back, but only on a completed payment this gateway took.
 */
const existingOrOpened = (gateway: Gateway, report: DisputeReport) =>
  Effect.gen(function*() {
    const disputes = yield* DisputeRepository
    const known = yield* disputes.findByGatewayId(gateway.id, report.gatewayDisputeId)
    if (Option.isSome(known)) return Either.right(known.value)
    if (Option.isNone(yield* (yield* CheckoutAttempts).find(report.trxId, gateway.id))) return Either.left("not begun with this gateway")
    const { payment, held } = yield* lockedForDispute(report.trxId)
    if (payment.status !== "success") return Either.left("the payment is not completed")
    if (report.currency !== undefined && report.currency !== payment.currency) return Either.left("another currency than the payment's")
    const exponent = yield* exponentOfHeld(payment.currency)
    const parsed = report.amount === undefined ? undefined : parseAmount({ kind: "string", value: report.amount }, exponent, { allowZero: false })
    if (parsed !== undefined && Either.isLeft(parsed)) return Either.left(`an amount the payment's currency cannot hold: ${report.amount}`)
    const amount = parsed?.right ?? undisputedRest(payment, held)
    if (amount === 0n) return Either.left("nothing is left of the payment to dispute")
    const dueBy = report.evidenceDueBy === undefined ? undefined : fromIsoString(report.evidenceDueBy)
    return Either.right(yield* openOnPayment(payment, {
      amount,
      reason: report.reason ?? "unspecified",
      gateway: { id: gateway.id, disputeId: report.gatewayDisputeId },
      ...(dueBy !== undefined ? { evidenceDueBy: dueBy } : {})
    }))
  })

/**
 * A gateway's verified dispute report, by the gateway's own dispute id: the same report delivered
 * again changes nothing. Opened records it; updated moves its stage or deadline; closed settles it.
 */
export const acceptDisputeReport = (gateway: Gateway, report: DisputeReport) =>
  Effect.flatMap(Transactor, ({ withTransaction }) =>
    withTransaction(Effect.gen(function*() {
      const found = yield* existingOrOpened(gateway, report)
      if (Either.isLeft(found)) {
        yield* Effect.logWarning(`gateway dispute report ignored: ${found.left}`).pipe(
          Effect.annotateLogs({ trx_id: report.trxId, gateway: gateway.code, gateway_dispute_id: report.gatewayDisputeId }))
        return ignored(found.left)
      }
      const dispute = Option.getOrThrow(yield* (yield* DisputeRepository).findForUpdate(found.right.id))
      if (report.event === "closed" && report.outcome !== undefined && isOpen(dispute.status)) {
        return { _tag: "Disputed", dispute: yield* closeOpenDispute(dispute, report.outcome) } satisfies DisputeVerdict
      }
      if (report.event === "updated" && isOpen(dispute.status)) {
        const dueBy = report.evidenceDueBy === undefined ? undefined : fromIsoString(report.evidenceDueBy)
        const status = report.status ?? dispute.status
        if (status !== dispute.status || (dueBy !== undefined && dueBy !== dispute.evidenceDueBy)) {
          return {
            _tag: "Disputed",
            dispute: yield* disputeMoved(dispute, { status, at: yield* now, ...(dueBy !== undefined ? { evidenceDueBy: dueBy } : {}) })
          } satisfies DisputeVerdict
        }
      }
      return { _tag: "Disputed", dispute } satisfies DisputeVerdict
    })))
