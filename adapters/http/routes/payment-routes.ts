import { HttpRouter } from "@effect/platform"
import { Effect } from "effect"
import { normalizeKeywords } from "../../../core/payments/gateway-eligibility.js"
import { initiatePayment } from "../../../core/payments/initiate-payment.js"
import { type SimulatedOutcome, simulatePayment, verifyPayment } from "../../../core/payments/verify-payment.js"
import { refusalBeforeLookup, WebhookTargets } from "../../../core/webhooks/target-rule.js"
import { ok } from "../api-response.js"
import { BodyFields } from "../body-fields.js"
import { CurrentMerchant, merchantEndpoint } from "../merchant-endpoint.js"
import { checkoutSessionJson, verifyJson } from "../payment-serializers.js"
import { jsonObjectBody } from "../request-body.js"
import { CURRENCY_CODE_RULE, isCurrencyCode } from "../../../core/money/currencies.js"

/** The simulate endpoint's words (those of verify's status), mapped once to the payment outcome. */
const SIMULATED = { success: "paid", failed: "declined", cancelled: "cancelled" } as const satisfies Record<string, SimulatedOutcome>
const SIMULATE_WORDS = Object.keys(SIMULATED) as ReadonlyArray<keyof typeof SIMULATED>

const URL_RULE = { required: true, max: 2048 } as const

/** The keywords as sent: a comma/pipe/space separated string or an array of strings. */
const readKeywords = (fields: BodyFields, body: Readonly<Record<string, unknown>>) => {
  const value = body["allow_payment_methods"]
  if (value === undefined || value === null) return []
  if (typeof value === "string") return normalizeKeywords(fields.string("allow_payment_methods", { max: 1000 }))
  return normalizeKeywords(fields.stringArray("allow_payment_methods", { maxItems: 50 }))
}

/**
 * An ipn_url delivery would certainly refuse (scheme, credentials, a private literal address, a
 * localhost name) is refused now, naming why: otherwise the payment succeeds and its webhook never
 * leaves. Names are not resolved here; delivery checks every address they resolve to.
 */
const checkIpnUrl = (fields: BodyFields, ipnUrl: string | undefined, targets: WebhookTargets["Type"]) => {
  const refusal = ipnUrl === undefined ? undefined : refusalBeforeLookup(new URL(ipnUrl), targets)
  if (refusal !== undefined) {
    fields.fail("ipn_url", `The ipn url field must be a public http or https address; refused: ${refusal}.`)
  }
}

const initiate = Effect.gen(function*() {
  const caller = yield* CurrentMerchant
  const body = yield* jsonObjectBody
  const fields = new BodyFields(body)
  const amount = fields.amount("payment_amount", { required: true })
  const currency = fields.string("currency_code", { required: true, max: 10 })
  if (currency !== undefined && !isCurrencyCode(currency)) {
    fields.fail("currency_code", CURRENCY_CODE_RULE, "INVALID_CURRENCY")
  }
  const request = {
    refTrx: fields.reference("ref_trx", { required: true, max: 60 }),
    successRedirect: fields.url("success_redirect", URL_RULE),
    cancelRedirect: fields.url("cancel_redirect", URL_RULE),
    ipnUrl: fields.url("ipn_url", URL_RULE),
    description: fields.string("description", { max: 1000 }) ?? null,
    customerName: fields.string("customer_name", { max: 100 }) ?? null,
    customerEmail: fields.email("customer_email", { max: 100 }) ?? null,
    keywords: readKeywords(fields, body)
  }
  checkIpnUrl(fields, request.ipnUrl, yield* WebhookTargets)
  const valid = yield* fields.done(() => ({
    ...request,
    amount: amount!,
    currency: currency!,
    refTrx: request.refTrx!,
    successRedirect: request.successRedirect!,
    cancelRedirect: request.cancelRedirect!,
    ipnUrl: request.ipnUrl!
  }))
  const session = yield* initiatePayment(caller, valid)
  return ok(checkoutSessionJson(session, caller.merchant.name))
})

const trxIdParam = Effect.map(HttpRouter.params, (params) => params["trxId"] ?? "")

const verify = Effect.gen(function*() {
  return ok(verifyJson(yield* verifyPayment(yield* CurrentMerchant, yield* trxIdParam)))
})

const simulate = Effect.gen(function*() {
  const caller = yield* CurrentMerchant
  const fields = new BodyFields(yield* jsonObjectBody)
  const outcome = fields.oneOf("outcome", SIMULATE_WORDS, { required: true })
  yield* fields.done(() => undefined)
  return ok(verifyJson(yield* simulatePayment(caller, yield* trxIdParam, SIMULATED[outcome!])))
})

export const paymentRoutes = HttpRouter.empty.pipe(
  HttpRouter.post("/api/v1/initiate-payment", merchantEndpoint(initiate)),
  HttpRouter.get("/api/v1/verify-payment/:trxId", merchantEndpoint(verify)),
  HttpRouter.post("/api/v1/sandbox/payments/:trxId/simulate", merchantEndpoint(simulate))
)
