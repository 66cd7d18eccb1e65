import * as Metric from "effect/Metric"
import * as MetricBoundaries from "effect/MetricBoundaries"

/**
 * What the core counts, on Effect's Metric module: cheap in-memory updates that nothing reads until an
 * operator's scraper asks (`/metrics`). The names are a contract with dashboards and alerts, so they
 * live here once. Labels are bounded words (an environment, a status, a plugin id): never a merchant,
 * a key, a reference or an amount.
 */

/** Seconds, from a few milliseconds to a minute: the default buckets Prometheus users know, stretched. */
export const secondsBoundaries = MetricBoundaries.fromIterable([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60])

/** Payments that reached `success` or `failed` (the verify status), each once, by the host that ended it. */
export const paymentsFinished = Metric.counter("merchant_payments_payments_total", {
  description: "Payments ended, by environment and verify status (success or failed)",
  incremental: true
})

/** Refunds made (an idempotent replay of the same ref_refund is not a new one). */
export const refundsMade = Metric.counter("merchant_payments_refunds_total", {
  description: "Refunds made, by environment",
  incremental: true
})

/** Webhook attempts sent by this host, by outcome: `delivered` (2xx) or `failed`. */
export const webhookAttempts = Metric.counter("merchant_payments_webhook_attempts_total", {
  description: "Webhook delivery attempts, by outcome (delivered or failed)",
  incremental: true
})

/** Deliveries waiting to be sent (pending, paused targets' included), read from the store when scraped. */
export const webhookQueueDepth = Metric.gauge("merchant_payments_webhook_queue_depth", {
  description: "Webhook deliveries waiting for an attempt, every host of the store together"
})

/**
 * How late each attempt started after it was due, by lane (`fast` or `slow`): the dispatcher's
 * backlog, not the retry schedule. The slow lane's hanging receivers wait by design; the fast lane's
 * figure is the one that says the dispatcher keeps up.
 */
export const webhookDeliveryDelay = Metric.histogram(
  "merchant_payments_webhook_delivery_delay_seconds",
  secondsBoundaries,
  "Seconds between an attempt falling due and this host starting it, by lane"
)

/** Attempts this host is sending now, by lane: against the lane's slots, how full it is. */
export const webhookInFlight = Metric.gauge("merchant_payments_webhook_in_flight", {
  description: "Webhook attempts this host is sending now, by lane (fast or slow)"
})

/** Scheduler ticks run by this host (its minute loop and admin runs). */
export const schedulerTicks = Metric.counter("merchant_payments_scheduler_ticks_total", {
  description: "Subscription scheduler ticks run by this host",
  incremental: true
})

/** At this host's last tick: how long the most overdue subscription had been waiting (0 when none). */
export const schedulerLag = Metric.gauge("merchant_payments_scheduler_lag_seconds", {
  description: "At the last tick, seconds the most overdue subscription had been due"
})

/** Gateway plugin calls, by plugin id, operation and outcome (`ok` or why it failed). */
export const gatewayCalls = Metric.counter("merchant_payments_gateway_calls_total", {
  description: "Gateway plugin calls, by plugin, operation and outcome",
  incremental: true
})

/** Disputes opened (by an operator in sandbox or a gateway's report), counted as recorded: a transaction rolled back after (rare) leaves it one ahead. */
export const disputesOpened = Metric.counter("merchant_payments_disputes_opened_total", {
  description: "Disputes opened, by environment",
  incremental: true
})

/** Payouts reaching each status (`pending` when asked for, then approved, paid, failed or rejected), counted once committed. */
export const payoutsMoved = Metric.counter("merchant_payments_payouts_total", {
  description: "Payouts reaching a status, by environment and status (pending, approved, paid, failed, rejected)",
  incremental: true
})

/**
 * The rolling reserve held now, every host's store together, by environment and currency, in the
 * currency's units: read from the store at each scrape. A gauge is a double: for graphs and alerts,
 * never for accounting, which reads the ledger.
 */
export const reserveHeld = Metric.gauge("merchant_payments_reserve_held", {
  description: "Rolling reserve held now, by environment and currency, in the currency's units (for graphs; the ledger is exact)"
})

/** Lines of reconciled settlement reports, by outcome (matched, missing_in_kit, ...): a discrepancy count to alert on. */
export const reconciliationLines = Metric.counter("merchant_payments_reconciliation_lines_total", {
  description: "Lines of reconciled settlement reports, by outcome",
  incremental: true
})

/** Renewal invoices paid after their dunning campaign began (the payment stopped it), by environment. */
export const dunningInvoicesRecovered = Metric.counter("merchant_payments_dunning_invoices_recovered_total", {
  description: "Renewal invoices paid after dunning began, by environment",
  incremental: true
})

/** Dunning campaigns that reached their final action unpaid (cancel or stay past_due), by environment. */
export const dunningInvoicesLost = Metric.counter("merchant_payments_dunning_invoices_lost_total", {
  description: "Renewal invoices still unpaid when dunning reached its final action, by environment",
  incremental: true
})

/** Off-session renewal charges of saved methods, by outcome (paid, declined, hard_declined, authentication_required, unanswered). */
export const renewalCharges = Metric.counter("merchant_payments_renewal_charges_total", {
  description: "Off-session renewal charges of saved payment methods, by outcome",
  incremental: true
})
