import { expect } from "vitest"
import { expectError, expectOk } from "./assertions.js"
import type { Environment, MerchantCaller } from "./fixtures.js"
import { balanceText, rawJson, type Shop, simulate, startSession, uniqueRef, verify } from "./payment-fixtures.js"
import { adminRequest, type HttpResult, type Target } from "./signing.js"

/** Refunds (spec 2.4, 4.3, 6.3) through the HTTP API only. */

export const REFUND = "/api/v1/refund-payment"

export const REFUND_KEYS = [
  "currency", "fully_refunded", "message", "original_trx_id", "refund_trx_id", "refunded_amount", "remaining_refund",
  "status", "total_refunded"
]

/** Spec 4.3's refusals, word for word. */
export const NOT_COMPLETED = "Only completed payments can be refunded"
export const FULLY_REFUNDED = "This payment has already been fully refunded"
export const EXCEEDS = "Refund amount exceeds the refundable balance"
export const WALLET_SHORT = "Merchant wallet balance is insufficient to process this refund"

/** The error code docs/decisions.md gives each refusal (the contract fixes only the messages). */
export const REFUSAL_CODES: Readonly<Record<string, string>> = {
  [NOT_COMPLETED]: "INVALID_STATE",
  [FULLY_REFUNDED]: "INVALID_STATE",
  [EXCEEDS]: "INVALID_AMOUNT",
  [WALLET_SHORT]: "INSUFFICIENT_BALANCE"
}

export const refused = (message: string) => ({ status: 422, message, errorCode: REFUSAL_CODES[message]! }) as const
export const NOT_FOUND = { status: 404, errorCode: "NOT_FOUND" } as const

export interface RefundFields {
  readonly trx_id?: unknown
  readonly reason?: unknown
  readonly ref_refund?: unknown
}

/** The refund body; `amount` is raw JSON text, left out when undefined. */
export const refundBody = (fields: RefundFields, amount?: string): string =>
  rawJson({ ...fields }, amount === undefined ? {} : { amount })

export const refund = (
  caller: MerchantCaller,
  fields: RefundFields,
  amount?: string,
  headers: Readonly<Record<string, string>> = {}
): Promise<HttpResult> => caller.call({ method: "POST", path: REFUND, body: refundBody(fields, amount), headers })

/** `"field":literal` exactly as the response text writes it (a JSON number, not a string, not a float artefact). */
export const expectLiteral = (response: HttpResult, field: string, literal: string): void => {
  const pattern = new RegExp(`"${field}":${literal.replace(/[.+-]/g, "\\$&")}(?=[,}])`)
  expect(response.text, `"${field}":${literal} in ${response.text}`).toMatch(pattern)
}

export interface ExpectedRefund {
  readonly original: string
  /** Amounts as the canonical JSON literals the response must contain. */
  readonly refunded: string
  readonly total: string
  readonly remaining: string
  readonly fully: boolean
  readonly currency?: string
  readonly environment?: Environment
}

/** A 200 refund body: exactly the 2.4 fields, exact amounts in the text, a fresh refund transaction id. */
export const expectRefund = (response: HttpResult, expected: ExpectedRefund): any => {
  const body = expectOk(response)
  const context = response.text
  expect(Object.keys(body).sort(), context).toEqual(REFUND_KEYS)
  expect(body.status, context).toBe("success")
  expect(typeof body.message === "string" && body.message.length > 0, context).toBe(true)
  const prefix = (expected.environment ?? "sandbox") === "sandbox" ? "SANDBOX_" : "PRODUCTION_"
  expect(body.refund_trx_id, context).toMatch(new RegExp(`^${prefix}[0-9A-Z]{26}$`))
  expect(body.refund_trx_id, context).not.toBe(expected.original)
  expect(body.original_trx_id, context).toBe(expected.original)
  expect(body.currency, context).toBe(expected.currency ?? "USD")
  expect(body.fully_refunded, context).toBe(expected.fully)
  expectLiteral(response, "refunded_amount", expected.refunded)
  expectLiteral(response, "total_refunded", expected.total)
  expectLiteral(response, "remaining_refund", expected.remaining)
  expectLiteral(response, "fully_refunded", String(expected.fully))
  return body
}

/** A completed payment of `amount` (raw JSON) in `currency` on the shop's sandbox: its trx_id. */
export const paidPayment = async (shop: Shop, amount = "100", currency = "USD", fields: Readonly<Record<string, unknown>> = {}): Promise<string> => {
  const trxId = (await startSession(shop.sandbox, amount, { currency_code: currency, ...fields })).info.trx_id as string
  expect(expectOk(await simulate(shop.sandbox, trxId, "success")).status).toBe("success")
  return trxId
}

/** An admin ledger adjustment (positive funds the wallet, negative debits it), amount as raw JSON. */
export const adjustWallet = async (target: Target, walletId: number, amount: string): Promise<void> => {
  const response = await adminRequest(target, "POST", `/wallets/${walletId}/adjustments`, `{"amount":${amount},"reason":"conformance refund"}`)
  expectOk(response, 201)
}

/** The shop's sandbox wallet balance in `currency`, as the response text writes it. */
export const walletBalance = (target: Target, shop: Shop, currency = "USD"): Promise<string> =>
  balanceText(target, shop.merchant.id, shop.wallet(currency).id)

/** What verify-payment says of the refunds: literals from the text, and the status. */
export const refundState = async (caller: MerchantCaller, trxId: string) => {
  const response = await verify(caller, trxId)
  const body = expectOk(response)
  const refunded = /"refunded_amount":(-?[0-9.]+)(?=[,}])/.exec(response.text)?.[1]
  return { status: body.status as string, refunded, fully: body.fully_refunded as boolean }
}

/** The webhook deliveries of one merchant with this event name. */
export const deliveriesOf = async (target: Target, merchantId: number, event: string): Promise<ReadonlyArray<any>> => {
  const list = expectOk(await adminRequest(target, "GET", `/webhook-deliveries?merchant_id=${merchantId}`)).data as ReadonlyArray<any>
  return list.filter((delivery) => delivery.event === event)
}

/** Every response, for assertion messages about a batch. */
export const describeAll = (responses: ReadonlyArray<HttpResult>): string => responses.map((r) => `${r.status} ${r.text}`).join("\n")

export const expectRefused = (response: HttpResult, message: string) => expectError(response, refused(message))

export { uniqueRef }
