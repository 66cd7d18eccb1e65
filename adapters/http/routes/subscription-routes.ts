import { HttpRouter } from "@effect/platform"
import { Effect, Either } from "effect"
import { CURRENCY_CODE_RULE, isCurrencyCode } from "../../../core/money/currencies.js"
import { CheckoutLinks } from "../../../core/payments/checkout-links.js"
import { fromIsoString } from "../../../core/shared/instant.js"
import { cancelSubscription, renewSubscription } from "../../../core/subscriptions/change-subscription.js"
import { createSubscription } from "../../../core/subscriptions/create-subscription.js"
import { metadataProblem } from "../../../core/subscriptions/metadata-rules.js"
import { BillingCycle, type Invoice, type Subscription } from "../../../core/subscriptions/subscription.js"
import { listSubscriptions, retrieveSubscription } from "../../../core/subscriptions/subscription-queries.js"
import { subscriptionJson } from "../../../core/subscriptions/subscription-resource.js"
import { WebhookTargetCheck } from "../../../core/webhooks/target-check.js"
import { created, ok } from "../api-response.js"
import { BodyFields } from "../body-fields.js"
import { plainJsonObject } from "../json-value.js"
import { CurrentMerchant, merchantEndpoint } from "../merchant-endpoint.js"
import { listQuery, pageJson } from "../page-query.js"
import { jsonObjectBody } from "../request-body.js"

const URL_RULE = { required: true, max: 255 } as const
const CYCLES = BillingCycle.literals

/** Method codes as sent: one string of comma-separated codes, or an array of codes. */
const readMethodCodes = (fields: BodyFields, body: Readonly<Record<string, unknown>>): ReadonlyArray<string> => {
  const value = body["allow_payment_methods"]
  if (value === undefined || value === null) return []
  const items = typeof value === "string"
    ? [fields.string("allow_payment_methods", { max: 1000 }) ?? ""]
    : fields.stringArray("allow_payment_methods", { maxItems: 50 }) ?? []
  return [...new Set(items.flatMap((item) => item.split(",")).map((code) => code.trim()).filter((code) => code !== ""))]
}

const readMetadata = (fields: BodyFields, body: Readonly<Record<string, unknown>>) => {
  const value = body["metadata"]
  if (value === undefined || value === null) return {}
  const plain = plainJsonObject(value)
  if (Either.isLeft(plain)) return fields.fail("metadata", `The metadata field ${plain.left}.`) ?? {}
  const problem = metadataProblem(plain.right)
  return problem === undefined ? plain.right : fields.fail("metadata", `The metadata field ${problem}.`) ?? {}
}

const readStartsAt = (fields: BodyFields) => {
  const text = fields.string("starts_at", { max: 64 })
  if (text === undefined) return null
  const instant = fromIsoString(text)
  return instant ?? fields.fail("starts_at", "The starts at field must be an ISO 8601 date-time with an offset, such as 2030-01-31T09:00:00Z.") ?? null
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
  Effect.map(CheckoutLinks, (links) => ({ data: subscriptionJson(result.subscription, result.latest, links.linkFor) }))

const create = Effect.gen(function*() {
  const caller = yield* CurrentMerchant
  const body = yield* jsonObjectBody
  const fields = new BodyFields(body)
  const amount = fields.amount("payment_amount", { required: true })
  const currency = fields.string("currency_code", { required: true, max: 10 })
  if (currency !== undefined && !isCurrencyCode(currency)) fields.fail("currency_code", CURRENCY_CODE_RULE, "INVALID_CURRENCY")
  const request = {
    externalReference: fields.reference("external_reference", { required: true, max: 100 }),
    billingCycle: fields.oneOf("billing_cycle", CYCLES, { required: true }),
    customerEmail: fields.email("customer_email", { required: true, max: 150 }),
    customerName: fields.string("customer_name", { max: 100 }) ?? null,
    description: fields.string("description", { max: 1000 }) ?? null,
    successRedirect: fields.url("success_redirect", URL_RULE),
    cancelRedirect: fields.url("cancel_redirect", URL_RULE),
    ipnUrl: fields.url("ipn_url", URL_RULE),
    startsAt: readStartsAt(fields),
    allowPaymentMethods: readMethodCodes(fields, body),
    metadata: readMetadata(fields, body)
  }
  yield* checkIpnUrl(fields, request.ipnUrl)
  const valid = yield* fields.done(() => ({
    ...request,
    amount: amount!,
    currency: currency!,
    externalReference: request.externalReference!,
    billingCycle: request.billingCycle!,
    customerEmail: request.customerEmail!,
    successRedirect: request.successRedirect!,
    cancelRedirect: request.cancelRedirect!,
    ipnUrl: request.ipnUrl!
  }))
  return created(yield* subscriptionAnswer(yield* createSubscription(caller, valid)))
})

const list = Effect.gen(function*() {
  const caller = yield* CurrentMerchant
  const query = yield* listQuery
  const page = yield* query.done(query.page())
  const links = yield* CheckoutLinks
  const result = yield* listSubscriptions(caller, page)
  return ok(pageJson(result, (item) => subscriptionJson(item.subscription, item.latest, links.linkFor)))
})

const idParam = Effect.map(HttpRouter.params, (params) => params["subscriptionId"] ?? "")

const retrieve = Effect.gen(function*() {
  const { invoices, subscription } = yield* retrieveSubscription(yield* CurrentMerchant, yield* idParam)
  const links = yield* CheckoutLinks
  return ok({ data: subscriptionJson(subscription, invoices[0], links.linkFor, invoices) })
})

const cancel = Effect.gen(function*() {
  const fields = new BodyFields(yield* jsonObjectBody)
  const atPeriodEnd = fields.boolean("at_period_end") ?? true
  yield* fields.done(() => undefined)
  return ok(yield* subscriptionAnswer(yield* cancelSubscription(yield* CurrentMerchant, yield* idParam, atPeriodEnd)))
})

const renew = Effect.gen(function*() {
  const fields = new BodyFields(yield* jsonObjectBody)
  const forceNew = fields.boolean("force_new") ?? false
  yield* fields.done(() => undefined)
  return ok(yield* subscriptionAnswer(yield* renewSubscription(yield* CurrentMerchant, yield* idParam, forceNew)))
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
