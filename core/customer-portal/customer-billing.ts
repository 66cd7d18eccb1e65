import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { invoiceDocument } from "../subscriptions/invoice-document.js"
import type { InvoiceDocumentKind } from "../subscriptions/invoice-documents.js"
import { MerchantRepository } from "../merchants/merchant-repository.js"
import type { MerchantId } from "../shared/ids.js"
import { Transactor } from "../shared/transactor.js"
import { cancelSubscription, renewSubscription } from "../subscriptions/change-subscription.js"
import { findMethodSetup, type SetupAddresses, settleMethodSetup, startMethodSetup } from "../subscriptions/method-setup.js"
import { startMethodUpdate } from "../subscriptions/method-update.js"
import type { Invoice, Subscription } from "../subscriptions/subscription.js"
import { RETRIEVED_INVOICES, scopedSubscription } from "../subscriptions/subscription-queries.js"
import { SubscriptionRepository } from "../subscriptions/subscription-repository.js"
import { portalCancellationAllowed } from "./portal-cancellation.js"
import type { PortalScope } from "./portal-session.js"
import { PortalSessionRepository } from "./portal-session-repository.js"

/** How many of a customer's subscriptions the portal lists (newest first). */
export const PORTAL_SUBSCRIPTIONS = 50

/** Not this customer's (or not there at all): the portal answers both alike, so nothing about others leaks. */
export class PortalItemNotFound extends Schema.TaggedError<PortalItemNotFound>()("PortalItemNotFound", {}) {}

/** A portal action the subscription's state does not allow now (already cancelled, nothing to pay, not allowed). */
export class PortalActionRefused extends Schema.TaggedError<PortalActionRefused>()("PortalActionRefused", {
  reason: Schema.Literal("nothingToPay", "cannotCancel", "cancellationOff", "methodAtNextPayment", "methodClosed")
}) {}

export interface CustomerSubscription {
  readonly subscription: Subscription
  /** Newest first (the latest twenty, as the API's retrieve). */
  readonly invoices: ReadonlyArray<Invoice>
}

/** The merchant behind a portal, as the subscription use cases take their caller. */
const merchantScopeOf = (scope: PortalScope) =>
  Effect.gen(function*() {
    const merchant = yield* (yield* MerchantRepository).findById(scope.merchantId)
    if (Option.isNone(merchant)) return yield* new PortalItemNotFound()
    return { merchant: merchant.value, environment: scope.environment } satisfies MerchantScope
  })

/** E-mail addresses are compared without case: the same mailbox, however the merchant wrote it. */
const sameCustomer = (subscription: Subscription, scope: PortalScope) =>
  subscription.customerEmail.toLowerCase() === scope.customerEmail.toLowerCase()

/** The merchant's name, for the page ("Return to <merchant>"). */
export const portalMerchantName = (scope: PortalScope) => Effect.map(merchantScopeOf(scope), (caller) => caller.merchant.name)

/** A merchant's name by id (a refused link's page names whom to go back to), if it exists. */
export const merchantNameOf = (merchantId: MerchantId) =>
  Effect.map(Effect.flatMap(MerchantRepository, (repo) => repo.findById(merchantId)), Option.map((merchant) => merchant.name))

/** One of the customer's subscriptions; any other id, this merchant's or not, is PortalItemNotFound. */
const customerSubscription = (scope: PortalScope, id: string, lock: boolean) =>
  Effect.gen(function*() {
    const caller = yield* merchantScopeOf(scope)
    const subscription = yield* scopedSubscription(caller, id, lock).pipe(Effect.catchTag("SubscriptionNotFound", () => new PortalItemNotFound()))
    if (!sameCustomer(subscription, scope)) return yield* new PortalItemNotFound()
    return { caller, subscription }
  })

const withInvoices = (subscription: Subscription) =>
  Effect.map(Effect.flatMap(SubscriptionRepository, (repo) => repo.latestInvoices(subscription.id, RETRIEVED_INVOICES)), (invoices) => ({
    subscription,
    invoices
  }) satisfies CustomerSubscription)

/** The customer's subscriptions with this merchant in this environment, newest first, each with its invoices. */
export const customerSubscriptions = (scope: PortalScope) =>
  Effect.gen(function*() {
    const ids = yield* (yield* PortalSessionRepository).customerSubscriptionIds(scope.merchantId, scope.environment, scope.customerEmail, PORTAL_SUBSCRIPTIONS)
    const caller = yield* merchantScopeOf(scope)
    const found = yield* Effect.forEach(ids, (id) => Effect.option(scopedSubscription(caller, id, false)))
    return yield* Effect.forEach(found.filter(Option.isSome).map((some) => some.value).filter((s) => sameCustomer(s, scope)), withInvoices)
  })

/** One subscription of the customer's with its invoices. */
export const customerSubscriptionDetail = (scope: PortalScope, id: string) =>
  Effect.flatMap(customerSubscription(scope, id, false), ({ subscription }) => withInvoices(subscription))

/** Whether the customer may be offered "Cancel at period end" on this subscription now. */
export const cancellable = (subscription: Subscription) => subscription.status === "active" && !subscription.cancelAtPeriodEnd

/**
 * Whether the subscription has a period waiting to be paid that the customer can pay now: the first
 * (pending, not a future start) or a renewal (past_due). Renew (spec 4.9) gives it a checkout.
 */
export const awaitingPayment = (subscription: Subscription) =>
  subscription.status === "past_due" || (subscription.status === "pending" && subscription.nextBillingAt === null)

/**
 * "Pay" on one of the customer's unpaid invoices: the renew use case (spec 4.9) gives the open
 * checkout of the period due, or a fresh one when it lapsed, exactly as the API's renew would; the
 * answer is that invoice, whose checkout the customer is sent to.
 */
/**
 * One of the customer's invoices as a document (its PDF, or its receipt once paid), through the use
 * case the API and the dashboard call; another customer's invoice is not found as an unknown one.
 */
export const customerInvoiceDocument = (scope: PortalScope, invoiceId: string, kind: InvoiceDocumentKind) =>
  Effect.gen(function*() {
    const invoice = yield* Effect.flatMap(SubscriptionRepository, (repo) => repo.findInvoiceById(invoiceId))
    if (Option.isNone(invoice)) return yield* new PortalItemNotFound()
    const { caller, subscription } = yield* customerSubscription(scope, invoice.value.subscriptionId, false)
    return yield* invoiceDocument(caller, subscription.id, invoiceId, kind).pipe(
      Effect.catchTags({
        SubscriptionNotFound: () => new PortalItemNotFound(),
        InvoiceNotFound: () => new PortalItemNotFound(),
        InvoiceNotPaid: () => new PortalItemNotFound()
      })
    )
  })

export const payCustomerInvoice = (scope: PortalScope, invoiceId: string) =>
  Effect.gen(function*() {
    const invoice = yield* Effect.flatMap(SubscriptionRepository, (repo) => repo.findInvoiceById(invoiceId))
    if (Option.isNone(invoice)) return yield* new PortalItemNotFound()
    const { caller, subscription } = yield* customerSubscription(scope, invoice.value.subscriptionId, false)
    const unpaid = invoice.value.status === "pending" || invoice.value.status === "expired"
    if (!unpaid || !awaitingPayment(subscription)) return yield* new PortalActionRefused({ reason: "nothingToPay" })
    const renewed = yield* renewSubscription(caller, subscription.id, false).pipe(
      Effect.catchTag("SubscriptionTransitionRefused", () => new PortalActionRefused({ reason: "nothingToPay" }))
    )
    if (renewed.latest === undefined || renewed.latest.status !== "pending") return yield* new PortalActionRefused({ reason: "nothingToPay" })
    return renewed.latest
  })

/**
 * "Cancel at period end", when the merchant allows it: the API's cancel (spec 4.8) with
 * at_period_end, decided under the subscription's row lock so it never cancels at once a
 * subscription that stopped being active meanwhile.
 */
export const cancelCustomerSubscription = (scope: PortalScope, id: string) =>
  Effect.flatMap(Transactor, ({ withTransaction }) =>
    withTransaction(Effect.gen(function*() {
      const { caller, subscription } = yield* customerSubscription(scope, id, true)
      if (!(yield* portalCancellationAllowed(scope.merchantId))) return yield* new PortalActionRefused({ reason: "cancellationOff" })
      if (!cancellable(subscription)) return yield* new PortalActionRefused({ reason: "cannotCancel" })
      return yield* cancelSubscription(caller, subscription.id, true).pipe(
        Effect.catchTag("SubscriptionTransitionRefused", () => new PortalActionRefused({ reason: "cannotCancel" })),
        Effect.catchTag("SubscriptionNotFound", () => new PortalItemNotFound())
      )
    })))

/**
 * "Update payment method" on one of the customer's subscriptions: with an open invoice, its hosted
 * checkout (paying there saves the new method); with nothing to pay, a setup-only session at the
 * gateway the method was saved through, when its plugin offers one (no money moves). A cancelled
 * subscription's method is closed; otherwise it waits for the next invoice's checkout.
 */
export const updateCustomerPaymentMethod = (scope: PortalScope, id: string, addresses: (setupId: string) => SetupAddresses) =>
  Effect.gen(function*() {
    const { caller, subscription } = yield* customerSubscription(scope, id, false)
    if (subscription.status === "cancelled") return yield* new PortalActionRefused({ reason: "methodClosed" })
    return yield* startMethodUpdate(subscription).pipe(
      Effect.map((checkout) => ({ _tag: "Checkout" as const, url: checkout.url })),
      Effect.catchTag("MethodUpdateUnavailable", () =>
        startMethodSetup(subscription, caller.merchant.name, addresses).pipe(
          Effect.map(({ gatewayName, start }) => ({ _tag: "Setup" as const, gatewayName, start })),
          Effect.catchTag("MethodUpdateUnavailable", () => new PortalActionRefused({ reason: "methodAtNextPayment" }))
        ))
    )
  })

/**
 * The customer's return from a setup session: only to one of their own subscriptions' sessions (any
 * other id reads as not found, as another customer's subscription does), settled once.
 */
export const finishCustomerMethodSetup = (scope: PortalScope, setupId: string, fields: Readonly<Record<string, string>>) =>
  Effect.gen(function*() {
    const setup = yield* findMethodSetup(setupId)
    if (Option.isNone(setup) || setup.value.merchantId !== scope.merchantId || setup.value.environment !== scope.environment) {
      return yield* new PortalItemNotFound()
    }
    yield* customerSubscription(scope, setup.value.subscriptionId, false)
    return yield* settleMethodSetup(setup.value, fields)
  })
