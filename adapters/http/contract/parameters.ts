import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { MerchantStatus } from "../../../core/merchants/merchant.js"
import type { Amount } from "../../../core/money/amount.js"
import type { Instant } from "../../../core/shared/instant.js"
import { DEFAULT_PER_PAGE, MAX_PAGE, MAX_PER_PAGE } from "../../../core/shared/page.js"
import { ValidationFailed } from "../../../core/shared/validation.js"
import { DeliveryStatus } from "../../../core/webhooks/delivery.js"
import { isAbsent } from "../request/body-fields.js"
import { pathId } from "../request/path-params.js"
import { integerSchema } from "./field-rules.js"

/** A path or query parameter as the OpenAPI document shows it. */
export interface Parameter {
  readonly name: string
  readonly in: "path" | "query"
  readonly required: boolean
  readonly description: string
  readonly schema: Schema.Schema.AnyNoContext
}

/** What a list parameter reads its value with (page-query's ListQuery): bad values are collected, never thrown. */
export interface QueryReader {
  integer(name: string, min: number, max: number): number | undefined
  oneOf<A extends string>(name: string, allowed: ReadonlyArray<A>): A | undefined
  text(name: string, max: number): string | undefined
  instant(name: string): Instant | undefined
  amount(name: string): Amount | undefined
  /** A required parameter that was not given: recorded, so the query is refused. */
  required(name: string): never
}

/** A query parameter of a page-numbered list, read (with every other one) by ListQuery. */
export interface ListParameter<A> extends Parameter {
  readonly read: (query: QueryReader) => A
}

const listInteger = (name: string, min: number, max: number, fallback: number, description: string): ListParameter<number> => ({
  name,
  in: "query",
  required: false,
  description,
  schema: integerSchema({ min, max }).annotations({ default: fallback }),
  read: (query) => query.integer(name, min, max) ?? fallback
})

export const pageParameter = listInteger("page", 1, MAX_PAGE, 1, "The page, from 1; one past the last has an empty data.")
export const perPageParameter = listInteger("per_page", 1, MAX_PER_PAGE, DEFAULT_PER_PAGE, "Items per page.")

export const merchantStatusParameter: ListParameter<MerchantStatus | undefined> = {
  name: "status",
  in: "query",
  required: false,
  description: "Only merchants in this review status.",
  schema: MerchantStatus,
  read: (query) => query.oneOf("status", MerchantStatus.literals)
}

/** A parameter with how its route reads it. */
const declared = <R>(parameter: Parameter, read: R): Parameter & { readonly read: R } => ({ ...parameter, read })

/** A path segment naming a resource by positive integer id; any other text names none (404). */
export const idInPath = (name: string, resource: string) => declared({
  name,
  in: "path",
  required: true,
  description: `The ${resource.toLowerCase()}'s id.`,
  schema: integerSchema({ min: 1 })
}, pathId(name, resource))

/** A path segment taken as sent; a value that names nothing is the resource's 404. */
export const textInPath = (name: string, description: string) => declared({
  name,
  in: "path",
  required: true,
  description,
  schema: Schema.String
}, Effect.map(HttpRouter.params, (params) => params[name] ?? ""))

const searchParams = Effect.map(HttpServerRequest.HttpServerRequest, (request) => new URL(request.url, "http://query.invalid").searchParams)

/** A query parameter's value; absent or empty (isAbsent, the rule of every optional input) is null. */
const given = (params: URLSearchParams, name: string): string | null => {
  const value = params.get(name)
  return isAbsent(value) ? null : value
}

const MAX_FLAGS = 200

/** `?limit=` from 1 to 200, 50 when absent: the first one given, as before lists shared ListQuery's rule. */
const flagLimitParameter = declared({
  name: "limit",
  in: "query",
  required: false,
  description: "How many flags, newest first.",
  schema: integerSchema({ min: 1, max: MAX_FLAGS }).annotations({ default: 50 })
}, Effect.gen(function*() {
  const text = given(yield* searchParams, "limit")
  if (text === null) return 50
  const limit = /^\d{1,4}$/.test(text) ? Number(text) : 0
  if (limit < 1 || limit > MAX_FLAGS) return yield* ValidationFailed.field("limit", `The limit parameter must be a whole number from 1 to ${MAX_FLAGS}.`)
  return limit
}))

const deliveryMerchantParameter: Parameter = {
  name: "merchant_id",
  in: "query",
  required: false,
  description: "Only this merchant's deliveries.",
  schema: integerSchema({ min: 1 })
}

const deliveryStatusParameter: Parameter = {
  name: "status",
  in: "query",
  required: false,
  description: "Only deliveries in this state.",
  schema: DeliveryStatus
}

/** `?limit=` of the flagged payments. */
export const flagListQuery = {
  parameters: [flagLimitParameter],
  decode: Effect.map(flagLimitParameter.read, (limit) => ({ limit }))
}

/** `?merchant_id=&status=`, each optional, each checked, the first bad one answered (as the deliveries list always has). */
const deliveryFilter = Effect.gen(function*() {
  const query = yield* searchParams
  const merchant = given(query, deliveryMerchantParameter.name)
  const status = given(query, deliveryStatusParameter.name)
  if (merchant !== null && !/^[1-9]\d{0,14}$/.test(merchant)) return yield* ValidationFailed.field("merchant_id", "The merchant id must be a positive integer.")
  if (status !== null && !(DeliveryStatus.literals as ReadonlyArray<string>).includes(status)) {
    return yield* ValidationFailed.field("status", "The status must be pending, delivered or failed.")
  }
  return {
    ...(merchant !== null ? { merchant_id: Number(merchant) } : {}),
    ...(status !== null ? { status: status as DeliveryStatus } : {})
  }
})

export const merchantIdInPath = idInPath("id", "Merchant")
export const walletIdInPath = idInPath("id", "Wallet")
export const gatewayIdInPath = idInPath("id", "Gateway")
export const trxIdInPath = textInPath("trxId", "The payment's trx_id, from initiate or the IPN.")
export const subscriptionIdInPath = textInPath("subscriptionId", "The subscription's id.")
export const paymentTrxIdInPath = textInPath("trx_id", "The payment's trx_id.")
export const deliveryIdInPath = textInPath("id", "The delivery's id: the event id (X-Event-Id).")

export const deliveryListQuery = { parameters: [deliveryMerchantParameter, deliveryStatusParameter], decode: deliveryFilter }

/** `?merchant_id=` of the failing targets: the shared integer rule, every bad value told. */
export const targetMerchantParameter: ListParameter<number | undefined> = {
  ...deliveryMerchantParameter,
  description: "Only this merchant's targets.",
  read: (query) => query.integer("merchant_id", 1, 9_999_999_999)
}
