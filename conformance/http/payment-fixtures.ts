import { randomBytes } from "node:crypto"
import { afterEach, expect } from "vitest"
import { expectOk } from "./assertions.js"
import { callerFor, createMerchant, type Environment, issueCredentials, type MerchantBody, type MerchantCaller } from "./fixtures.js"
import { adminRequest, type HttpResult, type Target } from "./signing.js"

/** Payments through the HTTP API only: merchants, currencies, wallets and gateways made by the admin API. */

export const INITIATE = "/api/v1/initiate-payment"
export const verifyPath = (trxId: string) => `/api/v1/verify-payment/${encodeURIComponent(trxId)}`
export const simulatePath = (trxId: string) => `/api/v1/sandbox/payments/${encodeURIComponent(trxId)}/simulate`

export const suffix = (): string => randomBytes(4).toString("hex")
export const uniqueRef = (label = "order"): string => `${label}-${randomBytes(6).toString("hex")}`

export interface WalletBody {
  readonly id: number
  readonly currency_code: string
  readonly environment: Environment
  readonly active: boolean
}

export interface ShopOptions {
  /** Currencies enabled for the merchant; default USD. */
  readonly currencies?: ReadonlyArray<string>
  /** Active wallets to open, `CUR` (sandbox) or `CUR:production`; default one sandbox wallet per currency. */
  readonly wallets?: ReadonlyArray<string>
  /** Also issue production credentials (the merchant must then be approved, the default). */
  readonly production?: boolean
  readonly merchant?: Record<string, unknown>
}

/** A merchant ready to take payments: currencies, wallets and signed callers per environment. */
export interface Shop {
  readonly merchant: MerchantBody
  readonly sandbox: MerchantCaller
  readonly production: MerchantCaller
  readonly wallets: ReadonlyArray<WalletBody>
  readonly wallet: (currency: string, environment?: Environment) => WalletBody
}

export const setCurrencies = async (target: Target, merchantId: number, codes: ReadonlyArray<string>): Promise<void> => {
  expectOk(await adminRequest(target, "PUT", `/merchants/${merchantId}/currencies`, { currency_codes: codes }))
}

export const openWallet = async (target: Target, merchantId: number, currency: string, environment: Environment = "sandbox"): Promise<WalletBody> =>
  expectOk(await adminRequest(target, "POST", `/merchants/${merchantId}/wallets`, { currency_code: currency, environment }), 201)

export const createShop = async (target: Target, options: ShopOptions = {}): Promise<Shop> => {
  const merchant = await createMerchant(target, { status: "approved", ...options.merchant })
  const currencies = options.currencies ?? ["USD"]
  if (currencies.length > 0) await setCurrencies(target, merchant.id, currencies)
  const wallets: Array<WalletBody> = []
  for (const spec of options.wallets ?? currencies) {
    const [currency, environment = "sandbox"] = spec.split(":")
    wallets.push(await openWallet(target, merchant.id, currency!, environment as Environment))
  }
  const sandbox = callerFor(target, merchant, await issueCredentials(target, merchant.id, "sandbox"))
  const production = options.production === true
    ? callerFor(target, merchant, await issueCredentials(target, merchant.id, "production"))
    : sandbox
  return {
    merchant,
    sandbox,
    production,
    wallets,
    wallet: (currency, environment = "sandbox") => {
      const found = wallets.find((w) => w.currency_code === currency && w.environment === environment)
      if (found === undefined) throw new Error(`no ${environment} ${currency} wallet in this shop`)
      return found
    }
  }
}

/** A JSON object with some values written as raw JSON text (exact number literals). */
export const rawJson = (fields: Readonly<Record<string, unknown>>, raw: Readonly<Record<string, string>> = {}): string => {
  const parts = Object.entries(fields).filter(([, v]) => v !== undefined).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`)
  for (const [k, text] of Object.entries(raw)) parts.push(`${JSON.stringify(k)}:${text}`)
  return `{${parts.join(",")}}`
}

export const SUCCESS_URL = "https://shop.example/checkout/success?order=42&lang=en"
export const CANCEL_URL = "https://shop.example/checkout/cancelled"
export const IPN_URL = "https://shop.example/hooks/payments"

/**
 * Where checkout sends the customer back: the merchant's URL as written, with `trx_id` and `ref_trx`
 * appended to its query (docs/decisions.md), so the merchant's page knows which order returned.
 */
export const returnUrl = (merchantUrl: string, session: { readonly info: { readonly trx_id: string; readonly ref_trx: string } }): string =>
  `${merchantUrl}${merchantUrl.includes("?") ? "&" : "?"}${new URLSearchParams({ trx_id: session.info.trx_id, ref_trx: session.info.ref_trx })}`

/** A valid initiate body; `amount` is raw JSON text; `fields` override or add (undefined removes). */
export const paymentBody = (amount = "100", fields: Readonly<Record<string, unknown>> = {}): string =>
  rawJson({
    currency_code: "USD",
    ref_trx: uniqueRef(),
    success_redirect: SUCCESS_URL,
    cancel_redirect: CANCEL_URL,
    ipn_url: IPN_URL,
    ...fields
  }, amount === "" ? {} : { payment_amount: amount })

export const initiate = (caller: MerchantCaller, body: string): Promise<HttpResult> =>
  caller.call({ method: "POST", path: INITIATE, body })

/** A session that must start: the 200 body. */
export const startSession = async (caller: MerchantCaller, amount = "100", fields: Readonly<Record<string, unknown>> = {}) =>
  expectOk(await initiate(caller, paymentBody(amount, fields)))

export const verify = (caller: MerchantCaller, trxId: string): Promise<HttpResult> => caller.call({ path: verifyPath(trxId) })

export const simulate = (caller: MerchantCaller, trxId: string, outcome: unknown): Promise<HttpResult> =>
  caller.call({ method: "POST", path: simulatePath(trxId), body: JSON.stringify({ outcome }) })

export const statusOf = async (caller: MerchantCaller, trxId: string): Promise<string> => expectOk(await verify(caller, trxId)).status

/** A wallet's balance exactly as the response text writes it. */
export const balanceText = async (target: Target, merchantId: number, walletId: number): Promise<string> => {
  const response = await adminRequest(target, "GET", `/merchants/${merchantId}/wallets`)
  expectOk(response)
  const match = new RegExp(`"id":${walletId},[^}]*?"balance":(-?[0-9.]+)`).exec(response.text)
  if (match === null) throw new Error(`wallet ${walletId} not in ${response.text}`)
  return match[1]!
}

export interface GatewayBody {
  readonly id: number
  readonly code: string
  readonly name: string
  readonly currency_code: string
  readonly method: string
  readonly type: "automatic" | "manual"
  readonly active: boolean
}

export interface GatewayOptions {
  readonly currency?: string
  readonly type?: "automatic" | "manual"
  readonly active?: boolean
  /** The first part of the method; a random suffix keeps the code unique across the host. */
  readonly method?: string
  readonly name?: string
}

/**
 * Sandbox gateways for the cases of one describe block, switched off after each case: gateways are
 * host-wide (every merchant without a selection is offered them) and cannot be deleted.
 */
export const gatewayMaker = (target: () => Target) => {
  const made: Array<GatewayBody> = []
  afterEach(async () => {
    for (const gateway of made.splice(0)) {
      expectOk(await adminRequest(target(), "PATCH", `/gateways/${gateway.id}`, { active: false }))
    }
  })
  return async (options: GatewayOptions = {}): Promise<GatewayBody> => {
    const method = `${options.method ?? "conf"}_${suffix()}`
    const currency = options.currency ?? "USD"
    const response = await adminRequest(target(), "POST", "/gateways", {
      plugin: "sandbox",
      name: options.name ?? `Conformance ${method}`,
      currency_code: currency,
      method,
      type: options.type ?? "automatic",
      active: options.active ?? true
    })
    const gateway = expectOk(response, 201) as GatewayBody
    expect(gateway.code).toBe(`${method}-${currency}`.toLowerCase())
    made.push(gateway)
    return gateway
  }
}

export const selectGateways = async (target: Target, merchantId: number, ids: ReadonlyArray<number>): Promise<void> => {
  const response = await adminRequest(target, "PUT", `/merchants/${merchantId}/gateways`, { gateway_ids: ids })
  expect([...expectOk(response).gateway_ids].sort()).toEqual([...ids].sort())
}

export const listGateways = async (target: Target): Promise<ReadonlyArray<GatewayBody>> =>
  expectOk(await adminRequest(target, "GET", "/gateways")).data
