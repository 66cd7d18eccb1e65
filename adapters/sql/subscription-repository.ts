import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type * as Statement from "@effect/sql/Statement"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { Environment } from "../../core/shared/environment.js"
import { Amount } from "../../core/money/amount.js"
import { MerchantId } from "../../core/shared/ids.js"
import { Instant, now } from "../../core/shared/instant.js"
import {
  BillingCycle,
  ExternalReferenceTaken,
  type Invoice,
  type InvoiceChange,
  InvoiceSequenceTaken,
  InvoiceStatus,
  type Subscription,
  type SubscriptionChange,
  SubscriptionStatus
} from "../../core/subscriptions/subscription.js"
import { invoiceNumber, numberingYear } from "../../core/subscriptions/invoice-number.js"
import { SubscriptionRepository } from "../../core/subscriptions/subscription-repository.js"
import { DunningFinalAction } from "../../core/subscriptions/billing-settings.js"
import type { Dunning } from "../../core/subscriptions/dunning-state.js"
import { Int64, JsonObject, SafeInt } from "./columns.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { bySchema, boolean, int64, intList, literal, nullable, safeInt, stringList, table, text, typed } from "./table.js"

export const subscriptionsTable = table("subscriptions", {
  id: text,
  merchant_id: safeInt,
  environment: literal(Environment),
  external_reference: text,
  status: literal(SubscriptionStatus),
  billing_cycle: literal(BillingCycle),
  amount: int64,
  currency: text,
  customer_email: text,
  customer_name: nullable(text),
  description: nullable(text),
  success_redirect: text,
  cancel_redirect: text,
  ipn_url: text,
  allow_payment_methods: stringList,
  metadata: bySchema(JsonObject, "text"),
  starts_at: nullable(int64),
  current_period_start: nullable(int64),
  current_period_end: nullable(int64),
  next_billing_at: nullable(int64),
  cancel_at_period_end: boolean,
  cancelled_at: nullable(int64),
  test_clock_id: nullable(text),
  locale: nullable(text),
  wake_at: nullable(int64),
  trial_end: nullable(int64),
  trial_notice_at: nullable(int64),
  billing_anchor: nullable(int64),
  paused_at: nullable(int64),
  resumes_at: nullable(int64),
  pending_amount: nullable(int64),
  pending_cycle: nullable(literal(BillingCycle)),
  credit: int64,
  dunning_started_at: nullable(int64),
  dunning_step: nullable(typed(safeInt, "integer")),
  next_dunning_at: nullable(int64),
  dunning_reminder_days: nullable(intList),
  dunning_grace_days: nullable(typed(safeInt, "integer")),
  dunning_final_action: nullable(literal(DunningFinalAction)),
  saved_method_id: nullable(text),
  charge_at: nullable(int64),
  charge_attempts: safeInt,
  charge_claim: nullable(text),
  created_at: int64,
  updated_at: int64
})

export const subscriptionInvoicesTable = table("subscription_invoices", {
  id: text,
  subscription_id: text,
  sequence: typed(safeInt, "integer"),
  reference: text,
  number: nullable(text),
  status: literal(InvoiceStatus),
  amount: int64,
  currency: text,
  trx_id: nullable(text),
  period_start: nullable(int64),
  period_end: nullable(int64),
  checkout_expires_at: nullable(int64),
  paid_at: nullable(int64),
  created_at: int64,
  updated_at: int64
})

const CountRow = Schema.Struct({ total: SafeInt })

const decodeCount = Schema.decodeUnknown(CountRow)

const decodeWake = Schema.decodeUnknown(Schema.Struct({ wake_at: Schema.NullOr(Int64) }))

const instantOrNull = (value: bigint | null): Instant | null => (value === null ? null : Instant(value))

/** A campaign is stored in six columns, all set or all null. */
const toDunning = (row: typeof subscriptionsTable.Row.Type): Dunning | null =>
  row.dunning_started_at === null || row.next_dunning_at === null
    ? null
    : {
      startedAt: Instant(row.dunning_started_at),
      step: row.dunning_step ?? 0,
      nextAt: Instant(row.next_dunning_at),
      reminderDays: row.dunning_reminder_days ?? [],
      graceDays: row.dunning_grace_days ?? 0,
      finalAction: row.dunning_final_action ?? "cancel"
    }

const dunningColumns = (dunning: Dunning | null) => ({
  dunning_started_at: dunning?.startedAt ?? null,
  dunning_step: dunning?.step ?? null,
  next_dunning_at: dunning?.nextAt ?? null,
  dunning_reminder_days: dunning?.reminderDays ?? null,
  dunning_grace_days: dunning?.graceDays ?? null,
  dunning_final_action: dunning?.finalAction ?? null
})

const toSubscription = (row: typeof subscriptionsTable.Row.Type): Subscription => ({
  id: row.id,
  merchantId: MerchantId(row.merchant_id),
  environment: row.environment,
  externalReference: row.external_reference,
  status: row.status,
  billingCycle: row.billing_cycle,
  amount: Amount(row.amount),
  currency: row.currency,
  customerEmail: row.customer_email,
  customerName: row.customer_name,
  description: row.description,
  successRedirect: row.success_redirect,
  cancelRedirect: row.cancel_redirect,
  ipnUrl: row.ipn_url,
  allowPaymentMethods: row.allow_payment_methods,
  metadata: row.metadata,
  startsAt: instantOrNull(row.starts_at),
  currentPeriodStart: instantOrNull(row.current_period_start),
  currentPeriodEnd: instantOrNull(row.current_period_end),
  nextBillingAt: instantOrNull(row.next_billing_at),
  cancelAtPeriodEnd: row.cancel_at_period_end,
  cancelledAt: instantOrNull(row.cancelled_at),
  testClockId: row.test_clock_id,
  locale: row.locale,
  wakeAt: instantOrNull(row.wake_at),
  trialEnd: instantOrNull(row.trial_end),
  trialNoticeAt: instantOrNull(row.trial_notice_at),
  billingAnchor: instantOrNull(row.billing_anchor),
  pausedAt: instantOrNull(row.paused_at),
  resumesAt: instantOrNull(row.resumes_at),
  pendingAmount: row.pending_amount === null ? null : Amount(row.pending_amount),
  pendingCycle: row.pending_cycle,
  credit: Amount(row.credit),
  dunning: toDunning(row),
  savedMethodId: row.saved_method_id,
  chargeAt: instantOrNull(row.charge_at),
  chargeAttempts: row.charge_attempts,
  chargeClaim: row.charge_claim,
  createdAt: Instant(row.created_at),
  updatedAt: Instant(row.updated_at)
})

const toInvoice = (row: typeof subscriptionInvoicesTable.Row.Type): Invoice => ({
  id: row.id,
  subscriptionId: row.subscription_id,
  sequence: row.sequence,
  reference: row.reference,
  number: row.number,
  status: row.status,
  amount: Amount(row.amount),
  currency: row.currency,
  trxId: row.trx_id,
  periodStart: instantOrNull(row.period_start),
  periodEnd: instantOrNull(row.period_end),
  checkoutExpiresAt: instantOrNull(row.checkout_expires_at),
  paidAt: instantOrNull(row.paid_at),
  createdAt: Instant(row.created_at),
  updatedAt: Instant(row.updated_at)
})

const subscriptions = tableRows(subscriptionsTable, toSubscription)
const invoices = tableRows(subscriptionInvoicesTable, toInvoice)

type Rows = Effect.Effect<ReadonlyArray<unknown>, SqlError>
const oneSubscription = (query: Rows) => query.pipe(Effect.flatMap(subscriptions.first), dbCall)
const oneInvoice = (query: Rows) => query.pipe(Effect.flatMap(invoices.first), dbCall)

/** The columns of trials, plan changes and pauses a change names (issue 36, item 4). */
const planChangeColumns = (change: SubscriptionChange) => ({
  ...(change.amount !== undefined ? { amount: change.amount } : {}),
  ...(change.billingCycle !== undefined ? { billing_cycle: change.billingCycle } : {}),
  ...(change.trialEnd !== undefined ? { trial_end: change.trialEnd } : {}),
  ...(change.trialNoticeAt !== undefined ? { trial_notice_at: change.trialNoticeAt } : {}),
  ...(change.billingAnchor !== undefined ? { billing_anchor: change.billingAnchor } : {}),
  ...(change.pausedAt !== undefined ? { paused_at: change.pausedAt } : {}),
  ...(change.resumesAt !== undefined ? { resumes_at: change.resumesAt } : {}),
  ...(change.pendingAmount !== undefined ? { pending_amount: change.pendingAmount } : {}),
  ...(change.pendingCycle !== undefined ? { pending_cycle: change.pendingCycle } : {}),
  ...(change.credit !== undefined ? { credit: change.credit } : {})
})

/** Only the fields a change names are written; an absent field keeps its stored value. */
const subscriptionColumns = (change: SubscriptionChange) => subscriptionsTable.changes({
  ...(change.status !== undefined ? { status: change.status } : {}),
  ...(change.currentPeriodStart !== undefined ? { current_period_start: change.currentPeriodStart } : {}),
  ...(change.currentPeriodEnd !== undefined ? { current_period_end: change.currentPeriodEnd } : {}),
  ...(change.nextBillingAt !== undefined ? { next_billing_at: change.nextBillingAt } : {}),
  ...(change.cancelAtPeriodEnd !== undefined ? { cancel_at_period_end: change.cancelAtPeriodEnd } : {}),
  ...(change.cancelledAt !== undefined ? { cancelled_at: change.cancelledAt } : {}),
  ...(change.wakeAt !== undefined ? { wake_at: change.wakeAt } : {}),
  ...planChangeColumns(change),
  ...(change.dunning !== undefined ? dunningColumns(change.dunning) : {}),
  ...(change.savedMethodId !== undefined ? { saved_method_id: change.savedMethodId } : {}),
  ...(change.chargeAt !== undefined ? { charge_at: change.chargeAt } : {}),
  ...(change.chargeAttempts !== undefined ? { charge_attempts: change.chargeAttempts } : {}),
  ...(change.chargeClaim !== undefined ? { charge_claim: change.chargeClaim } : {})
})

const invoiceColumns = (change: InvoiceChange) => subscriptionInvoicesTable.changes({
  ...(change.status !== undefined ? { status: change.status } : {}),
  ...(change.trxId !== undefined ? { trx_id: change.trxId } : {}),
  ...(change.checkoutExpiresAt !== undefined ? { checkout_expires_at: change.checkoutExpiresAt } : {}),
  ...(change.paidAt !== undefined ? { paid_at: change.paidAt } : {})
})

export const layer = Layer.effect(
  SubscriptionRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** Draws the next invoice number of the subscription's merchant, environment and year; no row when `guard` kept it out. */
    const draw = (subscriptionId: string, year: number, guard: Statement.Fragment) =>
      sql`INSERT INTO invoice_number_counters (merchant_id, environment, year, last_number)
        SELECT merchant_id, environment, ${year}, 1 FROM subscriptions WHERE id = ${subscriptionId} ${guard}
        ON CONFLICT (merchant_id, environment, year)
        DO UPDATE SET last_number = invoice_number_counters.last_number + 1
        RETURNING last_number`
    const countOf = (drawn: ReadonlyArray<Record<string, unknown>>) => Schema.decodeUnknown(SafeInt)(drawn[0]?.["last_number"])

    return SubscriptionRepository.of({
      // The conflict target names the reference constraint only: an id collision is a bug and
      // must surface as a StorageError, not masquerade as a taken reference.
      insert: (s) =>
        Effect.gen(function*() {
          const at = yield* now
          const rows = yield* sql`INSERT INTO subscriptions ${
            sql.insert(subscriptionsTable.values({
              id: s.id,
              merchant_id: s.merchantId,
              environment: s.environment,
              external_reference: s.externalReference,
              status: s.status,
              billing_cycle: s.billingCycle,
              amount: s.amount,
              currency: s.currency,
              customer_email: s.customerEmail,
              customer_name: s.customerName,
              description: s.description,
              success_redirect: s.successRedirect,
              cancel_redirect: s.cancelRedirect,
              ipn_url: s.ipnUrl,
              allow_payment_methods: s.allowPaymentMethods,
              metadata: s.metadata,
              starts_at: s.startsAt,
              current_period_start: s.currentPeriodStart,
              current_period_end: s.currentPeriodEnd,
              next_billing_at: s.nextBillingAt,
              cancel_at_period_end: s.cancelAtPeriodEnd,
              cancelled_at: s.cancelledAt,
              test_clock_id: s.testClockId,
              locale: s.locale ?? null,
              wake_at: s.wakeAt,
              trial_end: s.trialEnd ?? null,
              trial_notice_at: s.trialNoticeAt ?? null,
              billing_anchor: s.billingAnchor ?? null,
              paused_at: s.pausedAt ?? null,
              resumes_at: s.resumesAt ?? null,
              pending_amount: s.pendingAmount ?? null,
              pending_cycle: s.pendingCycle ?? null,
              credit: s.credit ?? 0n,
              ...dunningColumns(s.dunning ?? null),
              saved_method_id: s.savedMethodId,
              charge_at: s.chargeAt,
              charge_attempts: s.chargeAttempts,
              charge_claim: s.chargeClaim,
              created_at: at,
              updated_at: at
            }))
          } ON CONFLICT (merchant_id, environment, external_reference) DO NOTHING RETURNING *`
          const inserted = yield* subscriptions.first(rows)
          if (Option.isNone(inserted)) {
            return yield* new ExternalReferenceTaken({ externalReference: s.externalReference })
          }
          return inserted.value
        }).pipe(dbCall),

      findById: (id) => oneSubscription(sql`SELECT * FROM subscriptions WHERE id = ${id}`),

      findByIdForUpdate: (id) =>
        oneSubscription(sql.onDialectOrElse({
          pg: () => sql`SELECT * FROM subscriptions WHERE id = ${id} FOR UPDATE`,
          // SQLite has one writer: the transaction itself is the lock.
          orElse: () => sql`SELECT * FROM subscriptions WHERE id = ${id}`
        })),

      findScoped: (merchantId, environment, id) =>
        oneSubscription(sql`SELECT * FROM subscriptions
          WHERE id = ${id} AND merchant_id = ${merchantId} AND environment = ${environment}`),

      list: (merchantId, environment, { page, perPage }) =>
        Effect.gen(function*() {
          const limit = Math.max(0, Math.trunc(perPage))
          const offset = Math.max(0, Math.trunc(page) - 1) * limit
          const rows = yield* sql`SELECT * FROM subscriptions
            WHERE merchant_id = ${merchantId} AND environment = ${environment}
            ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`
          const counted = yield* sql`SELECT COUNT(*) AS total FROM subscriptions
            WHERE merchant_id = ${merchantId} AND environment = ${environment}`
          const { total } = yield* decodeCount(counted[0])
          return { items: yield* subscriptions.all(rows), total }
        }).pipe(dbCall),

      // Compare-and-set: the status guard is in the WHERE clause, so of two racing writers only
      // the first matches the row; the second sees no row come back.
      transition: (id, from, change, at) =>
        oneSubscription(sql`UPDATE subscriptions SET ${sql.update({ ...subscriptionColumns(change), updated_at: at })}
          WHERE id = ${id} AND ${sql.in("status", from)} RETURNING *`),

      // Each scope reads its own index: real time's (wake_at, id) among clockless rows, a test
      // clock's (test_clock_id, wake_at). The status guard is a safety net: cancelled rows have none.
      listDue: (at, limit, testClockId) =>
        (testClockId === null
          ? sql`SELECT * FROM subscriptions
            WHERE wake_at IS NOT NULL AND wake_at <= ${at} AND test_clock_id IS NULL
              AND status <> ${"cancelled" satisfies SubscriptionStatus}
            ORDER BY wake_at, id LIMIT ${limit}`
          : sql`SELECT * FROM subscriptions
            WHERE test_clock_id = ${testClockId} AND wake_at IS NOT NULL AND wake_at <= ${at}
              AND status <> ${"cancelled" satisfies SubscriptionStatus}
            ORDER BY wake_at, id LIMIT ${limit}`).pipe(Effect.flatMap(subscriptions.all), dbCall),

      nextWake: (testClockId) =>
        sql`SELECT MIN(wake_at) AS wake_at FROM subscriptions
          WHERE test_clock_id = ${testClockId} AND wake_at IS NOT NULL AND status <> ${"cancelled" satisfies SubscriptionStatus}`.pipe(
          Effect.flatMap((rows) => decodeWake(rows[0])),
          Effect.map(({ wake_at }) => Option.map(Option.fromNullable(wake_at), Instant)),
          dbCall
        ),

      // Only the sequence constraint is the expected race; a duplicate reference is a bug and
      // stays a StorageError (on PostgreSQL it also aborts the surrounding transaction, rightly).
      // The number is drawn in a savepoint with the insert: an insert that loses the sequence race
      // rolls its draw back with it, so a conflict never burns a number (the outer transaction, if
      // it goes on, sees no gap). The counter row stays locked until the outer transaction ends.
      insertInvoice: (invoice) =>
        Effect.gen(function*() {
          const at = yield* now
          const year = numberingYear(at)
          const row = (count: number) =>
            subscriptionInvoicesTable.values({
              id: invoice.id,
              subscription_id: invoice.subscriptionId,
              sequence: invoice.sequence,
              reference: invoice.reference,
              number: invoiceNumber(year, count),
              status: invoice.status,
              amount: invoice.amount,
              currency: invoice.currency,
              trx_id: invoice.trxId,
              period_start: invoice.periodStart,
              period_end: invoice.periodEnd,
              checkout_expires_at: invoice.checkoutExpiresAt,
              paid_at: invoice.paidAt,
              created_at: at,
              updated_at: at
            })
          const insert = (count: number) =>
            Effect.flatMap(
              sql`INSERT INTO subscription_invoices ${sql.insert(row(count))} ON CONFLICT (subscription_id, sequence) DO NOTHING RETURNING *`,
              invoices.first
            )
          const taken = new InvoiceSequenceTaken({ subscriptionId: invoice.subscriptionId, sequence: invoice.sequence })
          // In a savepoint, so a taken sequence returns the number it drew (numbers are gapless).
          const inSavepoint = Effect.gen(function*() {
            const count = yield* countOf(yield* draw(invoice.subscriptionId, year, sql.literal("")))
            const inserted = yield* insert(count)
            return Option.isNone(inserted) ? yield* taken : inserted.value
          }).pipe(sql.withTransaction)
          // PostgreSQL, without the savepoint's round trip: the number is drawn only while the
          // sequence is free, which the caller's lock on the subscription keeps so until the insert.
          // Should another writer take it all the same, the number goes back: this transaction holds
          // the counter's row from its draw, so no later number was drawn from it.
          const drawnFirst = Effect.gen(function*() {
            const drawn = yield* draw(invoice.subscriptionId, year, sql`AND NOT EXISTS (
              SELECT 1 FROM subscription_invoices WHERE subscription_id = ${invoice.subscriptionId} AND sequence = ${invoice.sequence})`)
            // Nothing drawn: the sequence is taken (or the subscription is missing), answered as before.
            if (drawn.length === 0) return yield* inSavepoint
            const inserted = yield* insert(yield* countOf(drawn))
            if (Option.isSome(inserted)) return inserted.value
            yield* sql`UPDATE invoice_number_counters SET last_number = last_number - 1
              WHERE year = ${year} AND (merchant_id, environment) = (SELECT merchant_id, environment FROM subscriptions WHERE id = ${invoice.subscriptionId})`
            return yield* taken
          })
          return yield* sql.onDialectOrElse({ pg: () => drawnFirst, orElse: () => inSavepoint })
        }).pipe(dbCall),

      findInvoiceById: (id) => oneInvoice(sql`SELECT * FROM subscription_invoices WHERE id = ${id}`),

      findInvoiceByReference: (reference) =>
        oneInvoice(sql`SELECT * FROM subscription_invoices WHERE reference = ${reference}`),

      updateInvoice: (id, from, change, at) =>
        oneInvoice(sql`UPDATE subscription_invoices SET ${sql.update({ ...invoiceColumns(change), updated_at: at })}
          WHERE id = ${id} AND ${sql.in("status", from)} RETURNING *`),

      latestInvoiceOf: (subscriptionIds) =>
        subscriptionIds.length === 0
          ? Effect.succeed([])
          : sql`SELECT * FROM subscription_invoices i WHERE ${sql.in("i.subscription_id", subscriptionIds)}
              AND i.sequence = (SELECT MAX(sequence) FROM subscription_invoices m WHERE m.subscription_id = i.subscription_id)`
            .pipe(Effect.flatMap(invoices.all), dbCall),

      latestInvoices: (subscriptionId, limit) =>
        sql`SELECT * FROM subscription_invoices WHERE subscription_id = ${subscriptionId}
            ORDER BY sequence DESC LIMIT ${limit}`.pipe(Effect.flatMap(invoices.all), dbCall)
    })
  })
)
