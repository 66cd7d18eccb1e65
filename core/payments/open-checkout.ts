import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Gateway } from "../gateways/gateway.js"
import { GatewayRepository } from "../gateways/gateway-repository.js"
import type { Merchant } from "../merchants/merchant.js"
import { MerchantRepository } from "../merchants/merchant-repository.js"
import { availability } from "../merchants/review.js"
import { now, toSeconds } from "../shared/instant.js"
import { settlesVoidedInvoice } from "../subscriptions/invoices.js"
import { CheckoutAttempts } from "./checkout-attempts.js"
import { CheckoutLinks } from "./checkout-links.js"
import { finishOrReread } from "./finish-payment.js"
import type { Payment } from "./payment.js"
import { PaymentRepository } from "./payment-repository.js"

/**
 * Why a checkout link opens no session: it names nothing (or was not signed by this kit), it pays a
 * subscription invoice that was voided, its time is up, or its merchant may no longer take payment.
 * `payment` is the session's payment where there is one, as it stands after this refusal.
 */
export class CheckoutClosed extends Data.TaggedError("CheckoutClosed")<{
  readonly reason: "unknownLink" | "invoiceCancelled" | "expired" | "merchantUnavailable"
  readonly payment?: Payment
}> {}

/** The link's payment is no longer pending (paid, declined or cancelled): the customer goes back to the merchant. */
export class CheckoutEnded extends Data.TaggedError("CheckoutEnded")<{
  readonly payment: Payment
}> {}

/**
 * A pending payment whose checkout expired is failed here and now (with its event) rather than
 * waiting for the sweeper, so nobody sees a session as pending after it can no longer be paid.
 */
export const expireIfDue = (payment: Payment) =>
  Effect.gen(function*() {
    if (payment.status !== "pending" || payment.expiresAt > (yield* now)) return payment
    // Someone else may have ended it first: then report what they decided.
    return yield* finishOrReread(payment.trxId, { outcome: "expired", gatewayId: null })
  })

/** The checkout a link opens: its pending payment and the merchant it pays. */
export interface OpenCheckout {
  readonly payment: Payment
  readonly merchant: Merchant
}

/**
 * The session a checkout link names, on business time. A link past its time, or a pending payment
 * past its expiry, fails the payment as expired (once, with its event) and is refused. A payment no
 * longer pending is refused as ended, after those checks: whatever a page was asked, its answer is
 * then the way back to the merchant.
 */
export const openCheckout = (token: string) =>
  Effect.gen(function*() {
    const link = (yield* CheckoutLinks).read(token, toSeconds(yield* now))
    if (link._tag === "Invalid") return yield* new CheckoutClosed({ reason: "unknownLink" })
    const found = yield* (yield* PaymentRepository).findByTrxId(link.trxId)
    if (Option.isNone(found)) return yield* new CheckoutClosed({ reason: "unknownLink" })
    const payment = found.value
    if (yield* settlesVoidedInvoice(payment)) return yield* new CheckoutClosed({ reason: "invoiceCancelled", payment })
    if (link._tag === "Expired" || (payment.status === "pending" && payment.expiresAt <= (yield* now))) {
      const ended = payment.status === "pending" ? yield* finishOrReread(payment.trxId, { outcome: "expired", gatewayId: null }) : payment
      return yield* new CheckoutClosed({ reason: "expired", payment: ended })
    }
    const merchant = Option.getOrThrow(yield* (yield* MerchantRepository).findById(payment.merchantId))
    // A link issued before the merchant was suspended or disabled must not take payment after.
    if (availability(merchant.status, payment.environment)._tag !== "Available") {
      return yield* new CheckoutClosed({ reason: "merchantUnavailable", payment })
    }
    if (payment.status !== "pending") return yield* new CheckoutEnded({ payment })
    return { payment, merchant } satisfies OpenCheckout
  })

/** The customer gives up: a pending payment ends cancelled (with its event); one ended meanwhile stays as it is. */
export const cancelCheckout = (payment: Payment) =>
  payment.status === "pending" ? finishOrReread(payment.trxId, { outcome: "cancelled", gatewayId: null }) : Effect.succeed(payment)

/** The gateways a session offers that are still usable now (one may have been switched off since). */
export const offeredGateways = (payment: Payment) =>
  Effect.map(Effect.flatMap(GatewayRepository, (gateways) => gateways.listByIds(payment.gatewayIds)), (list) =>
    list.filter((gateway) => gateway.active))

/**
 * The gateway of the latest decline still on record for a pending payment, for the choice page to
 * say why the customer is back; choosing that gateway again clears it (CheckoutAttempts.begin).
 */
export const lastDecline = (payment: Payment) =>
  Effect.gen(function*() {
    if (payment.status !== "pending") return Option.none<Gateway>()
    const declined = (yield* (yield* CheckoutAttempts).listForPayment(payment.trxId)).filter((attempt) => attempt.declinedAt !== null)
    const latest = declined.reduce<(typeof declined)[number] | undefined>((last, attempt) =>
      last === undefined || attempt.declinedAt! > last.declinedAt! ? attempt : last, undefined)
    return latest === undefined ? Option.none<Gateway>() : yield* (yield* GatewayRepository).findById(latest.gatewayId)
  })
