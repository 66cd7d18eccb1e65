import * as Effect from "effect/Effect"
import { CheckoutLinks } from "../../../core/payments/checkout-links.js"
import { cancelSubscription, renewSubscription } from "../../../core/subscriptions/change-subscription.js"
import { createSubscription } from "../../../core/subscriptions/create-subscription.js"
import { pauseSubscription, resumeSubscription, updateSubscription } from "../../../core/subscriptions/subscription-changes.js"
import type { Invoice, Subscription } from "../../../core/subscriptions/subscription.js"
import { listSubscriptions, retrieveSubscription } from "../../../core/subscriptions/subscription-queries.js"
import { subscriptionJson } from "../response/subscription-json.js"
import { savedMethodFactsOf } from "../../../core/subscriptions/saved-methods.js"
import { subscriptionIpnUrlRefusal } from "../../../core/webhooks/ipn-url-rule.js"
import { ipnUrlToo } from "../contract/ipn-url-field.js"
import { subscriptionIdInPath } from "../contract/parameters.js"
import { pageNumberQuery, queryOf } from "../contract/query-contract.js"
import { SubscriptionEnvelope, SubscriptionPage } from "../contract/subscription-resources.js"
import { readJsonBody, validBody } from "../contract/read-body.js"
import {
  cancelSubscriptionBody,
  createSubscriptionBody,
  pauseSubscriptionBody,
  renewSubscriptionBody,
  updateSubscriptionBody
} from "../contract/subscription-contracts.js"
import { endpoint } from "../endpoint/endpoint.js"
import { CurrentMerchant } from "../endpoint/merchant-endpoint.js"
import { pageJson } from "../request/page-query.js"

const subscriptionAnswer = (result: { readonly subscription: Subscription; readonly latest: Invoice | undefined }) =>
  Effect.map(CheckoutLinks, (links) => ({ data: subscriptionJson(result.subscription, result.latest, links.linkFor) }) satisfies typeof SubscriptionEnvelope.Type)

const SUBSCRIPTION_CHANGE_ERRORS = ["SubscriptionNotFound", "SubscriptionTransitionRefused", "InvoiceSequenceTaken"] as const
// A new invoice opens a checkout: the currency or its wallet may have gone since the subscription began.
const NEW_INVOICE_ERRORS = ["CurrencyNotEnabled", "ReceiverWalletUnavailable", "DuplicateReference", "InvoiceSequenceTaken"] as const

// Spec 5.1: X-Environment defaults to production on these endpoints only.
const create = endpoint({
  method: "post",
  path: "/api/v1/subscriptions",
  operationId: "createSubscription",
  summary: "Create a subscription and its first invoice",
  tag: "Subscriptions",
  security: "merchant-production-default",
  body: createSubscriptionBody,
  success: { status: 201, description: "The subscription with `latest_invoice` (also for an idempotent replay).", schema: SubscriptionEnvelope },
  errors: [...NEW_INVOICE_ERRORS, "ExternalReferenceTaken", "TestClockBusy", "TestClockLimitReached"],
  // The checkout terms name the amount `amount`; this body calls it payment_amount.
  wireNames: { amount: "payment_amount" },
  handler: Effect.gen(function*() {
    const caller = yield* CurrentMerchant
    const { done, fields, values } = yield* readJsonBody(createSubscriptionBody)
    yield* ipnUrlToo(fields, values.ipn_url, subscriptionIpnUrlRefusal)
    const valid = yield* done((body) => ({
      amount: body.payment_amount,
      currency: body.currency_code,
      externalReference: body.external_reference,
      billingCycle: body.billing_cycle,
      customerEmail: body.customer_email,
      customerName: body.customer_name ?? null,
      description: body.description ?? null,
      successRedirect: body.success_redirect,
      cancelRedirect: body.cancel_redirect,
      ipnUrl: body.ipn_url,
      startsAt: body.starts_at ?? null,
      trialDays: body.trial_days ?? null,
      allowPaymentMethods: body.allow_payment_methods ?? [],
      metadata: body.metadata ?? {},
      testClockId: body.test_clock ?? null,
      locale: body.locale ?? null
    }))
    return yield* subscriptionAnswer(yield* createSubscription(caller, valid))
  })
})

const list = endpoint({
  method: "get",
  path: "/api/v1/subscriptions",
  operationId: "listSubscriptions",
  summary: "List subscriptions, newest first",
  tag: "Subscriptions",
  security: "merchant-production-default",
  query: queryOf(pageNumberQuery),
  success: { status: 200, description: "A page of subscriptions.", schema: SubscriptionPage },
  handler: ({ page, per_page: perPage }) => Effect.gen(function*() {
    const caller = yield* CurrentMerchant
    const links = yield* CheckoutLinks
    const result = yield* listSubscriptions(caller, { page, perPage })
    return pageJson(result, (item) => subscriptionJson(item.subscription, item.latest, links.linkFor))
  })
})

const idParam = subscriptionIdInPath.read

const retrieve = endpoint({
  method: "get",
  path: "/api/v1/subscriptions/{subscriptionId}",
  operationId: "retrieveSubscription",
  summary: "One subscription with its latest 20 invoices",
  tag: "Subscriptions",
  security: "merchant-production-default",
  parameters: [subscriptionIdInPath],
  success: { status: 200, description: "The subscription with `invoices`.", schema: SubscriptionEnvelope },
  errors: ["SubscriptionNotFound"],
  handler: Effect.gen(function*() {
    const { invoices, subscription } = yield* retrieveSubscription(yield* CurrentMerchant, yield* idParam)
    const links = yield* CheckoutLinks
    return { data: subscriptionJson(subscription, invoices[0], links.linkFor, invoices, yield* savedMethodFactsOf(subscription)) }
  })
})

const cancel = endpoint({
  method: "post",
  path: "/api/v1/subscriptions/{subscriptionId}/cancel",
  operationId: "cancelSubscription",
  summary: "Cancel at the end of the paid period, or now",
  tag: "Subscriptions",
  security: "merchant-production-default",
  parameters: [subscriptionIdInPath],
  body: cancelSubscriptionBody,
  success: { status: 200, description: "The subscription.", schema: SubscriptionEnvelope },
  errors: SUBSCRIPTION_CHANGE_ERRORS,
  handler: Effect.gen(function*() {
    const { at_period_end } = yield* validBody(cancelSubscriptionBody)
    return yield* subscriptionAnswer(yield* cancelSubscription(yield* CurrentMerchant, yield* idParam, at_period_end))
  })
})

const renew = endpoint({
  method: "post",
  path: "/api/v1/subscriptions/{subscriptionId}/renew",
  operationId: "renewSubscription",
  summary: "Create or recover a renewal checkout",
  description: "Active subscriptions cannot renew early (409). A 503 is retried with the identical request and key.",
  tag: "Subscriptions",
  security: "merchant-production-default",
  parameters: [subscriptionIdInPath],
  body: renewSubscriptionBody,
  success: { status: 200, description: "The subscription with its open invoice.", schema: SubscriptionEnvelope },
  errors: [...SUBSCRIPTION_CHANGE_ERRORS, ...NEW_INVOICE_ERRORS],
  // The checkout terms name the amount `amount`; this body calls it payment_amount.
  wireNames: { amount: "payment_amount" },
  handler: Effect.gen(function*() {
    const { force_new } = yield* validBody(renewSubscriptionBody)
    return yield* subscriptionAnswer(yield* renewSubscription(yield* CurrentMerchant, yield* idParam, force_new))
  })
})

const update = endpoint({
  method: "post",
  path: "/api/v1/subscriptions/{subscriptionId}/update",
  operationId: "updateSubscription",
  summary: "Change the amount or billing cycle, prorated now, at the next period, or not at all",
  description: "A net charge of `proration: now` opens a proration invoice (`invoice.created`); a net credit is kept as `credit`. Sends `subscription.updated`. Cancelled subscriptions answer 409.",
  tag: "Subscriptions",
  security: "merchant-production-default",
  parameters: [subscriptionIdInPath],
  body: updateSubscriptionBody,
  success: { status: 200, description: "The subscription, with the proration invoice as `latest_invoice` when one opened.", schema: SubscriptionEnvelope },
  errors: [...SUBSCRIPTION_CHANGE_ERRORS, ...NEW_INVOICE_ERRORS],
  wireNames: { amount: "payment_amount" },
  handler: Effect.gen(function*() {
    const body = yield* validBody(updateSubscriptionBody)
    return yield* subscriptionAnswer(yield* updateSubscription(yield* CurrentMerchant, yield* idParam, {
      amount: body.payment_amount,
      billingCycle: body.billing_cycle,
      proration: body.proration
    }))
  })
})

const pause = endpoint({
  method: "post",
  path: "/api/v1/subscriptions/{subscriptionId}/pause",
  operationId: "pauseSubscription",
  summary: "Pause an active subscription: no invoices until it resumes",
  description: "The paid period runs to its end; while paused the scheduler opens no invoice. Sends `subscription.paused`. Only active subscriptions pause (409 otherwise).",
  tag: "Subscriptions",
  security: "merchant-production-default",
  parameters: [subscriptionIdInPath],
  body: pauseSubscriptionBody,
  success: { status: 200, description: "The subscription with `paused_at`.", schema: SubscriptionEnvelope },
  errors: SUBSCRIPTION_CHANGE_ERRORS,
  handler: Effect.gen(function*() {
    const { resumes_at } = yield* validBody(pauseSubscriptionBody)
    return yield* subscriptionAnswer(yield* pauseSubscription(yield* CurrentMerchant, yield* idParam, resumes_at ?? null))
  })
})

const resume = endpoint({
  method: "post",
  path: "/api/v1/subscriptions/{subscriptionId}/resume",
  operationId: "resumeSubscription",
  summary: "Resume a paused subscription: billing continues at the next period boundary",
  description: "Sends `subscription.resumed`. A subscription that is not paused answers 409.",
  tag: "Subscriptions",
  security: "merchant-production-default",
  parameters: [subscriptionIdInPath],
  success: { status: 200, description: "The subscription with its next_billing_at.", schema: SubscriptionEnvelope },
  errors: SUBSCRIPTION_CHANGE_ERRORS,
  handler: Effect.gen(function*() {
    return yield* subscriptionAnswer(yield* resumeSubscription(yield* CurrentMerchant, yield* idParam))
  })
})

/** Spec 4.5-4.9, and the changes of issue 36. */
export const subscriptionEndpoints = [create, list, retrieve, cancel, renew, update, pause, resume] as const
