import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Amount } from "../money/amount.js"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { KeysetPosition } from "../shared/keyset-page.js"
import type { StorageError } from "../shared/storage-error.js"
import type { Completion, NewPayment, Payment, PaymentStatus, ReferenceHeld } from "./payment.js"

/** One page of a merchant's payments in one environment; every filter given must hold. */
export interface PaymentListQuery {
  readonly merchantId: MerchantId
  readonly environment: Environment
  /**
   * The status as verify answers it at `now`: a pending payment whose checkout expired at or before
   * `now` counts as failed, since verify fails it the moment anyone looks.
   */
  readonly status?: PaymentStatus
  readonly now: Instant
  readonly refTrx?: string
  readonly amount?: Amount
  readonly currency?: string
  /** Created at or after. */
  readonly since?: Instant
  /** Created before. */
  readonly until?: Instant
  /** Only payments after this one, newest first (a keyset: pages never shift while payments arrive). */
  readonly before?: KeysetPosition<string>
  readonly limit: number
}

/** Successful payments of one currency: how many, and the sum of their amounts (gross, exact). */
export interface CurrencyTotal {
  readonly currency: string
  readonly count: number
  readonly volume: Amount
}

/** A currency's successful payments on one UTC day: `day` whole days after the query's `since`. */
export interface DailyTotal extends CurrencyTotal {
  readonly day: number
}

export class PaymentRepository extends Context.Tag("merchant-payments/PaymentRepository")<PaymentRepository, {
  /**
   * Inserts a pending payment and claims its ref_trx for the merchant and environment in one step.
   * The claim is taken over only when its holder is failed or past its expiry at `now`, so two
   * concurrent sessions with one reference can never both succeed.
   */
  readonly insert: (payment: NewPayment, now: Instant) => Effect.Effect<Payment, ReferenceHeld | StorageError>
  readonly findByTrxId: (trxId: string) => Effect.Effect<Option.Option<Payment>, StorageError>
  /** Only the merchant's own payment in that environment. */
  readonly findScoped: (
    merchantId: MerchantId,
    environment: Environment,
    trxId: string
  ) => Effect.Effect<Option.Option<Payment>, StorageError>
  /**
   * As findScoped, and holds the payment's row until the transaction ends, so a decision made from it
   * (a refund's totals) cannot be overtaken by another writer. Call inside a transaction.
   */
  readonly findScopedForUpdate: (
    merchantId: MerchantId,
    environment: Environment,
    trxId: string
  ) => Effect.Effect<Option.Option<Payment>, StorageError>
  /**
   * Ends a pending payment. None when it was no longer pending (terminal payments never change),
   * which makes a second outcome harmless whichever request loses the race.
   */
  readonly complete: (
    trxId: string,
    completion: Completion,
    now: Instant
  ) => Effect.Effect<Option.Option<Payment>, StorageError>
  /**
   * Adds to the refunded total of a successful payment, only if the total stays within the
   * amount. None when the condition does not hold; the caller re-reads to tell why.
   */
  readonly addRefunded: (trxId: string, amount: Amount, now: Instant) => Effect.Effect<Option.Option<Payment>, StorageError>
  /** Newest first by (created_at, trx_id). */
  readonly list: (query: PaymentListQuery) => Effect.Effect<ReadonlyArray<Payment>, StorageError>
  /**
   * The merchant's successful payments in one environment completed at or after `since`, totalled
   * per currency, in currency order. Summed by the store on integers, exactly.
   */
  readonly successTotals: (query: {
    readonly merchantId: MerchantId
    readonly environment: Environment
    readonly since: Instant
  }) => Effect.Effect<ReadonlyArray<CurrencyTotal>, StorageError>
  /**
   * The same totals day by day: per currency and per whole day (86 400 s) after `since`, for the
   * payments completed at or after it, in currency then day order; a day with none is left out.
   */
  readonly dailySuccessTotals: (query: {
    readonly merchantId: MerchantId
    readonly environment: Environment
    readonly since: Instant
  }) => Effect.Effect<ReadonlyArray<DailyTotal>, StorageError>
  /** Pending payments whose checkout expired at or before `now`, oldest first. */
  readonly listExpiredPending: (now: Instant, limit: number) => Effect.Effect<ReadonlyArray<Payment>, StorageError>
}>() {}
