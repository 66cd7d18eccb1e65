import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"
import type { Payment, PaymentOutcome } from "./payment.js"

/**
 * What else a payment's end settles, run inside the transaction that ends it and before its status
 * is written, so both commit together or neither does: a subscription invoice's payment marks the
 * invoice and moves its subscription. Payments know nothing of subscriptions; the subscriptions
 * feature provides this. Without it, a payment that settles an invoice is a wiring defect.
 */
export class PaymentSettlement extends Context.Reference<PaymentSettlement>()("merchant-payments/PaymentSettlement", {
  defaultValue: (): {
    readonly settle: (payment: Payment, outcome: PaymentOutcome, at: Instant) => Effect.Effect<void, StorageError>
  } => ({
    settle: (payment) =>
      payment.invoiceId === null ? Effect.void : Effect.dieMessage(`payment ${payment.trxId} settles an invoice, but no settlement is wired`)
  })
}) {}
