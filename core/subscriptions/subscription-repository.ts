import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { CountedItems, PageRequest } from "../shared/page.js"
import type { StorageError } from "../shared/storage-error.js"
import type {
  ExternalReferenceTaken,
  Invoice,
  InvoiceChange,
  InvoiceSequenceTaken,
  InvoiceStatus,
  NewInvoice,
  NewSubscription,
  Subscription,
  SubscriptionChange,
  SubscriptionStatus
} from "./subscription.js"

export class SubscriptionRepository extends Context.Tag("merchant-payments/SubscriptionRepository")<
  SubscriptionRepository,
  {
    readonly insert: (subscription: NewSubscription) => Effect.Effect<Subscription, ExternalReferenceTaken | StorageError>
    readonly findById: (id: string) => Effect.Effect<Option.Option<Subscription>, StorageError>
    /**
     * As findById, and holds the subscription's row until the transaction ends: every writer of a
     * subscription (API calls, the scheduler, an invoice's payment) takes this lock first, so their
     * decisions are made one at a time. Call inside a transaction.
     */
    readonly findByIdForUpdate: (id: string) => Effect.Effect<Option.Option<Subscription>, StorageError>
    readonly findScoped: (
      merchantId: MerchantId,
      environment: Environment,
      id: string
    ) => Effect.Effect<Option.Option<Subscription>, StorageError>
    /** Newest first; `page` counts from 1. */
    readonly list: (
      merchantId: MerchantId,
      environment: Environment,
      page: PageRequest
    ) => Effect.Effect<CountedItems<Subscription>, StorageError>
    /**
     * Applies a change only while the subscription is in one of `from`: a compare-and-set, so two
     * writers racing on one lifecycle step cannot both apply it. None when the status moved on.
     */
    readonly transition: (
      id: string,
      from: ReadonlyArray<SubscriptionStatus>,
      change: SubscriptionChange,
      now: Instant
    ) => Effect.Effect<Option.Option<Subscription>, StorageError>
    /**
     * Subscriptions the scheduler must look at: not cancelled, waking at or before `now`, earliest
     * first, of one time scope: real time (`testClockId` null) or one sandbox test clock's. Only
     * subscriptions with scheduled work carry a wake time (wake.ts), so the index on it is the queue.
     */
    readonly listDue: (now: Instant, limit: number, testClockId: string | null) => Effect.Effect<ReadonlyArray<Subscription>, StorageError>
    /** The earliest wake time among a test clock's subscriptions, if any has work scheduled. */
    readonly nextWake: (testClockId: string) => Effect.Effect<Option.Option<Instant>, StorageError>
    readonly insertInvoice: (invoice: NewInvoice) => Effect.Effect<Invoice, InvoiceSequenceTaken | StorageError>
    readonly findInvoiceById: (id: string) => Effect.Effect<Option.Option<Invoice>, StorageError>
    readonly findInvoiceByReference: (reference: string) => Effect.Effect<Option.Option<Invoice>, StorageError>
    /** Compare-and-set on the invoice status, as `transition`. */
    readonly updateInvoice: (
      id: string,
      from: ReadonlyArray<InvoiceStatus>,
      change: InvoiceChange,
      now: Instant
    ) => Effect.Effect<Option.Option<Invoice>, StorageError>
    /** The newest invoice of each subscription named that has one. */
    readonly latestInvoiceOf: (subscriptionIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Invoice>, StorageError>
    /** Highest sequence first. */
    readonly latestInvoices: (subscriptionId: string, limit: number) => Effect.Effect<ReadonlyArray<Invoice>, StorageError>
  }
>() {}
