import { HttpRouter } from "@effect/platform"
import { Effect } from "effect"
import { CheckoutLinks } from "../../../core/payments/checkout-links.js"
import { cancelSubscription, renewSubscription } from "../../../core/subscriptions/change-subscription.js"
import { createSubscription } from "../../../core/subscriptions/create-subscription.js"
import type { Invoice, Subscription } from "../../../core/subscriptions/subscription.js"
import { listSubscriptions, retrieveSubscription } from "../../../core/subscriptions/subscription-queries.js"
import { subscriptionJson } from "../../../core/subscriptions/subscription-json.js"
import { WebhookTargetCheck } from "../../../core/webhooks/target-check.js"
import { created, ok } from "../api-response.js"
import type { BodyFields } from "../body-fields.js"
import { subscriptionIdInPath } from "../contract/parameters.js"
import type { SubscriptionEnvelope, SubscriptionPage } from "../contract/subscription-resources.js"
import { readJsonBody, validBody } from "../contract/read-body.js"
import { cancelSubscriptionBody, createSubscriptionBody, renewSubscriptionBody } from "../contract/subscription-contracts.js"
import { CurrentMerchant, merchantEndpoint } from "../merchant-endpoint.js"
import { listQuery, pageJson } from "../page-query.js"

/** Method codes as sent (one string of comma-separated codes, or an array of codes), each once. */
const methodCodes = (sent: string | ReadonlyArray<string> | undefined): ReadonlyArray<string> => {
  if (sent === undefined) return []
  const items = typeof sent === "string" ? [sent] : sent
  return [...new Set(items.flatMap((item) => item.split(",")).map((code) => code.trim()).filter((code) => code !== ""))]
}

/**
 * Spec 4.5: ipn_url HTTPS and resolving to public addresses only, checked by the delivery guard
 * itself (DNS included). A private target passes only where the operator allows private targets,
 * and then alone may be plain http (a local receiver).
 */
const checkIpnUrl = (fields: BodyFields, ipnUrl: string | undefined) =>
  Effect.gen(function*() {
    if (ipnUrl === undefined) return
    const url = new URL(ipnUrl)
    const verdict = yield* (yield* WebhookTargetCheck).check(url)
    if (verdict.refusal !== undefined) {
      fields.fail("ipn_url", `The ipn url field must be an HTTPS address that resolves to a public address; refused: ${verdict.refusal}.`)
    } else if (url.protocol !== "https:" && !verdict.privateTarget) {
      fields.fail("ipn_url", "The ipn url field must be an HTTPS address.")
    }
  })

const subscriptionAnswer = (result: { readonly subscription: Subscription; readonly latest: Invoice | undefined }) =>
  Effect.map(CheckoutLinks, (links) => ({ data: subscriptionJson(result.subscription, result.latest, links.linkFor) }) satisfies typeof SubscriptionEnvelope.Type)

const create = Effect.gen(function*() {
  const caller = yield* CurrentMerchant
  const { done, fields, values } = yield* readJsonBody(createSubscriptionBody)
  yield* checkIpnUrl(fields, values.ipn_url)
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
    allowPaymentMethods: methodCodes(body.allow_payment_methods),
    metadata: body.metadata ?? {}
  }))
  return created(yield* subscriptionAnswer(yield* createSubscription(caller, valid)))
})

const list = Effect.gen(function*() {
  const caller = yield* CurrentMerchant
  const query = yield* listQuery
  const page = yield* query.done(query.page())
  const links = yield* CheckoutLinks
  const result = yield* listSubscriptions(caller, page)
  return ok(pageJson(result, (item) => subscriptionJson(item.subscription, item.latest, links.linkFor)) satisfies typeof SubscriptionPage.Type)
})

const idParam = subscriptionIdInPath.read

const retrieve = Effect.gen(function*() {
  const { invoices, subscription } = yield* retrieveSubscription(yield* CurrentMerchant, yield* idParam)
  const links = yield* CheckoutLinks
  return ok({ data: subscriptionJson(subscription, invoices[0], links.linkFor, invoices) } satisfies typeof SubscriptionEnvelope.Type)
})

const cancel = Effect.gen(function*() {
  const { at_period_end } = yield* validBody(cancelSubscriptionBody)
  return ok(yield* subscriptionAnswer(yield* cancelSubscription(yield* CurrentMerchant, yield* idParam, at_period_end)))
})

const renew = Effect.gen(function*() {
  const { force_new } = yield* validBody(renewSubscriptionBody)
  return ok(yield* subscriptionAnswer(yield* renewSubscription(yield* CurrentMerchant, yield* idParam, force_new)))
})

// Spec 5.1: X-Environment defaults to production on these endpoints only.
const PRODUCTION_BY_DEFAULT = { defaultEnvironment: "production" } as const

export const subscriptionRoutes = HttpRouter.empty.pipe(
  HttpRouter.post("/api/v1/subscriptions", merchantEndpoint(create, PRODUCTION_BY_DEFAULT)),
  HttpRouter.get("/api/v1/subscriptions", merchantEndpoint(list, PRODUCTION_BY_DEFAULT)),
  HttpRouter.get("/api/v1/subscriptions/:subscriptionId", merchantEndpoint(retrieve, PRODUCTION_BY_DEFAULT)),
  HttpRouter.post("/api/v1/subscriptions/:subscriptionId/cancel", merchantEndpoint(cancel, PRODUCTION_BY_DEFAULT)),
  HttpRouter.post("/api/v1/subscriptions/:subscriptionId/renew", merchantEndpoint(renew, PRODUCTION_BY_DEFAULT))
)
