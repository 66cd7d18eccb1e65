import { layer } from "@effect/vitest"
import type * as Layer from "effect/Layer"
import type { Storage } from "../../core/storage.js"
import { auditLogCases } from "./audit-log-cases.js"
import { balanceCases } from "./balance-cases.js"
import { merchantCases } from "./merchant-cases.js"
import { subscriptionCases } from "./subscription-cases.js"
import { invoiceNumberCases } from "./invoice-number-cases.js"
import { testClockCases } from "./test-clock-cases.js"
import { savedMethodCases } from "./saved-method-cases.js"
import { webhookEndpointCases } from "./webhook-endpoint-cases.js"
import { webhookOutboxCases } from "./webhook-outbox-cases.js"
import { merchantListCases } from "./merchant-list-cases.js"
import { merchantUserCases } from "./merchant-user-cases.js"
import { merchantConfigCases } from "./merchant-config-cases.js"
import { paymentCases } from "./payment-cases.js"
import { payoutCases } from "./payout-cases.js"
import { disputeCases } from "./dispute-cases.js"
import { payoutDestinationCases } from "./payout-destination-cases.js"
import { reconciliationCases } from "./reconciliation-cases.js"
import { refundCases } from "./refund-cases.js"
import { checkoutAttemptCases } from "./checkout-attempt-cases.js"
import { gatewayRefundCases } from "./gateway-refund-cases.js"
import { requestGuardCases } from "./request-guard-cases.js"
import { schedulerLeaseCases } from "./scheduler-lease-cases.js"
import { transactionCases } from "./transaction-cases.js"
import { walletCases } from "./wallet-cases.js"
import { ledgerCases } from "./ledger-cases.js"
import { mailOutboxCases } from "./mail-outbox-cases.js"
import { eventLogCases } from "./event-log-cases.js"
import { paymentTotalsCases } from "./payment-totals-cases.js"
import { statementCases } from "./statement-cases.js"

/**
 * The contract every storage adapter must meet, as a function of its Layer, so a third-party
 * adapter's own test file can run it: `storageConformance("my-store", MyStore.layer(config))`.
 * Cases share one store and create their own uniquely named rows.
 */
export const storageConformance = (name: string, storage: Layer.Layer<Storage, unknown>): void =>
  layer(storage, { excludeTestServices: true, timeout: "120 seconds" })(`storage conformance: ${name}`, (it) => {
    merchantCases(it)
    subscriptionCases(it)
    invoiceNumberCases(it)
    testClockCases(it)
    savedMethodCases(it)
    schedulerLeaseCases(it)
    webhookOutboxCases(it)
    merchantConfigCases(it)
    walletCases(it)
    ledgerCases(it)
    paymentCases(it)
    refundCases(it)
    merchantListCases(it)
    gatewayRefundCases(it)
    checkoutAttemptCases(it)
    requestGuardCases(it)
    transactionCases(it)
    auditLogCases(it)
    merchantUserCases(it)
    paymentTotalsCases(it)
    statementCases(it)
    payoutDestinationCases(it)
    payoutCases(it)
    webhookEndpointCases(it)
    balanceCases(it)
    reconciliationCases(it)
    disputeCases(it)
    mailOutboxCases(it)
    eventLogCases(it)
  })
