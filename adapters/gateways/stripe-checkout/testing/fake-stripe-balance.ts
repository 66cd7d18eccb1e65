import type { ApiAnswer, FormParams } from "./fake-stripe-api.js"
import { type JsonObject, nowSeconds, stripeId } from "./fake-stripe-objects.js"

/**
 * The fake's list endpoints for settlement (`GET /v1/checkout/sessions`, `GET /v1/balance_transactions`),
 * as Stripe pages them: `created[gte]`/`created[lt]`, `limit`, `starting_after` and `has_more`, so
 * stripe-node's auto-pagination walks every page. `expand[]=data.source` is always honoured.
 */

const inCreated = (params: FormParams) => (object: JsonObject): boolean => {
  const created = object["created"] as number
  const gte = params.get("created[gte]")
  const lt = params.get("created[lt]")
  return (gte === undefined || created >= Number(gte)) && (lt === undefined || created < Number(lt))
}

export const listPage = (objects: ReadonlyArray<JsonObject>, params: FormParams, path: string): ApiAnswer => {
  const matching = objects.filter(inCreated(params))
  const after = params.get("starting_after")
  const start = after === undefined ? 0 : matching.findIndex((object) => object["id"] === after) + 1
  const limit = Number(params.get("limit") ?? "10")
  const data = matching.slice(start, start + limit)
  return { status: 200, body: { object: "list", url: path, has_more: start + limit < matching.length, data } }
}

export interface BalanceFields {
  readonly reportingCategory: string
  readonly amount: number
  readonly fee?: number
  readonly currency: string
  readonly source: JsonObject | null
  readonly created?: number
}

/** A `balance_transaction` as Stripe writes one, its source expanded. */
export const balanceTransaction = (fields: BalanceFields): JsonObject => ({
  id: stripeId("txn_"),
  object: "balance_transaction",
  amount: fields.amount,
  available_on: (fields.created ?? nowSeconds()) + 2 * 86_400,
  created: fields.created ?? nowSeconds(),
  currency: fields.currency,
  description: null,
  fee: fields.fee ?? 0,
  net: fields.amount - (fields.fee ?? 0),
  reporting_category: fields.reportingCategory,
  source: fields.source,
  status: "pending",
  type: fields.reportingCategory === "charge" ? "charge" : fields.reportingCategory
})

/** The charge a paid session's PaymentIntent made. */
export const chargeOf = (session: JsonObject): JsonObject => ({
  id: stripeId("ch_"),
  object: "charge",
  amount: session["amount_total"],
  currency: session["currency"],
  payment_intent: session["payment_intent"],
  status: "succeeded"
})
