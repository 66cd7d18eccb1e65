import { exactJsonParser } from "../../adapters/http/contract/exact-json-reader.js"
import { responseMoneyFields } from "../../adapters/http/endpoint/client-operations.js"
import { adminApi } from "../../adapters/http/admin-api/admin-api.js"
import type { ExactNumber } from "../../core/shared/json-text.js"
import type { IpnJsonStyle, IpnSignatureFormat } from "../../core/webhooks/ipn-compatibility.js"
import type { adjustmentJson, gatewayJson, merchantJson, settingsJson, walletJson } from "../../adapters/http/response/serializers.js"
import type { AuditEntry } from "../../adapters/http/contract/audit-resources.js"
import type { TrialBalance } from "../../adapters/http/contract/ledger-resources.js"
import type { AdminPayoutPage as AdminPayoutPageSchema, AdminPayout as AdminPayoutSchema } from "../../adapters/http/contract/payout-contracts.js"
import type { AdminDisputePage as AdminDisputePageSchema, AdminDispute as AdminDisputeSchema } from "../../adapters/http/contract/dispute-contracts.js"
import type { MerchantUser, PasswordLinkIssued } from "../../adapters/http/contract/merchant-user-resources.js"
import { AdminApiError } from "./admin-api-error.js"

export { AdminApiError } from "./admin-api-error.js"

/** An admin resource as `payments.admin` returns it: amounts as exact decimal strings, never floats. */
export type AdminResource<T> = T extends ExactNumber ? string
  // Brands (MerchantId...) are the server's bookkeeping; over the wire an id is a number.
  : T extends number ? number
  : T extends ReadonlyArray<infer Item> ? ReadonlyArray<AdminResource<Item>>
  : T extends object ? { readonly [K in keyof T]: AdminResource<T[K]> }
  : T

export type AdminMerchant = AdminResource<ReturnType<typeof merchantJson>>
export type AdminWallet = AdminResource<ReturnType<typeof walletJson>>
export type AdminAdjustment = AdminResource<ReturnType<typeof adjustmentJson>>
/** One book's accounts and their sum (zero), balances debit positive as exact decimal strings. */
export type AdminTrialBalance = AdminResource<typeof TrialBalance.Type>
export type AdminPayout = AdminResource<typeof AdminPayoutSchema.Type>
/** A page of payouts, newest first; `next_cursor` (null on the last page) is the next page's `cursor`. */
export type AdminPayoutPage = AdminResource<typeof AdminPayoutPageSchema.Type>
export type AdminDispute = AdminResource<typeof AdminDisputeSchema.Type>
/** A page of disputes, newest first; `next_cursor` (null on the last page) is the next page's `cursor`. */
export type AdminDisputePage = AdminResource<typeof AdminDisputePageSchema.Type>
export type AdminGateway = AdminResource<ReturnType<typeof gatewayJson>>
export type AdminSettings = AdminResource<ReturnType<typeof settingsJson>>
export type AdminAuditEntry = AdminResource<typeof AuditEntry.Type>
export type AdminMerchantUser = AdminResource<typeof MerchantUser.Type>
/** A dashboard user with its set-password link: shown once, when issued. */
export type AdminPasswordLink = AdminResource<typeof PasswordLinkIssued.Type>
export type JsonObject = Readonly<Record<string, unknown>>

export interface AdminPage<T> {
  readonly data: ReadonlyArray<T>
  readonly meta: { readonly current_page: number; readonly per_page: number; readonly total: number; readonly last_page: number }
}

/** A page of the audit log, newest first; `next_cursor` (null on the last page) is the next page's `cursor`. */
export interface AdminAuditPage {
  readonly data: ReadonlyArray<AdminAuditEntry>
  readonly has_more: boolean
  readonly next_cursor: string | null
}

export interface IssuedCredentials {
  readonly environment: "sandbox" | "production"
  readonly merchant_key: string
  readonly api_key: string
  readonly client_secret: string
  readonly webhook_secret: string
  /** When the replaced set stops working (an overlap was asked for); null when it stopped at once. */
  readonly previous_valid_until: string | null
}

/** The money fields of admin resources, read from the declarations: always their exact text, so "10" and "10.5" read alike. */
const parseAdminBody = exactJsonParser(responseMoneyFields(adminApi))

export type AdminCall = (method: string, path: string, body?: unknown) => Promise<{ readonly status: number; readonly text: string }>

type Money = string | number

/** A merchant's IPN compatibility settings, as the admin API takes them (docs/admin-api.md, merchants). */
interface IpnSettingsInput {
  readonly ipn_signature_format?: IpnSignatureFormat
  readonly ipn_json_style?: IpnJsonStyle
}

/**
 * `payments.admin`: the admin API without HTTP, through the very routes `/admin/v1` serves, so its
 * checks, messages and shapes are those of docs/admin-api.md.
 */
export const makeAdminApi = (call: AdminCall) => {
  const request = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await call(method, path, body)
    const json = answer.text === "" ? undefined : parseAdminBody(answer.text)
    if (answer.status >= 400) {
      const error = (json ?? {}) as { readonly message?: string; readonly error_code?: string; readonly errors?: Record<string, ReadonlyArray<string>> }
      throw new AdminApiError(answer.status, error.error_code ?? "SERVER_ERROR", error.message ?? `The admin API answered ${answer.status}.`, error.errors ?? {})
    }
    return json as T
  }
  const query = (params: Readonly<Record<string, string | number | undefined>>) => {
    const entries = Object.entries(params).filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    return entries.length === 0 ? "" : `?${new URLSearchParams(entries.map(([key, value]): [string, string] => [key, String(value)])).toString()}`
  }
  return {
    merchants: {
      create: (input: { readonly name: string; readonly status?: string; readonly fee_percent?: Money; readonly fee_fixed?: Money; readonly dispute_fee?: Money } & IpnSettingsInput) =>
        request<AdminMerchant>("POST", "/merchants", input),
      list: (filter: { readonly page?: number; readonly per_page?: number; readonly status?: string } = {}) =>
        request<AdminPage<AdminMerchant>>("GET", `/merchants${query(filter)}`),
      get: (id: number) => request<AdminMerchant>("GET", `/merchants/${id}`),
      update: (id: number, patch: { readonly name?: string; readonly status?: string; readonly fee_percent?: Money; readonly fee_fixed?: Money; readonly dispute_fee?: Money } & IpnSettingsInput) =>
        request<AdminMerchant>("PATCH", `/merchants/${id}`, patch)
    },
    credentials: {
      /**
       * A fresh credential set; its secrets are in this answer only. With `overlapSeconds` the replaced
       * set keeps working beside it for that long (a rotation without loss).
       */
      issue: (merchantId: number, environment: "sandbox" | "production", options: { readonly overlapSeconds?: number } = {}) =>
        request<IssuedCredentials>("POST", `/merchants/${merchantId}/credentials`, {
          environment,
          ...(options.overlapSeconds !== undefined ? { overlap_seconds: options.overlapSeconds } : {})
        }),
      /** Ends every overlap of the environment now: the replaced sets stop working and are destroyed. */
      endOverlap: (merchantId: number, environment: "sandbox" | "production") =>
        request<{ readonly environment: "sandbox" | "production"; readonly destroyed: number }>(
          "POST",
          `/merchants/${merchantId}/credentials/end-overlap`,
          { environment }
        )
    },
    currencies: {
      replace: (merchantId: number, codes: ReadonlyArray<string>) =>
        request<JsonObject>("PUT", `/merchants/${merchantId}/currencies`, { currency_codes: codes })
    },
    payoutSettings: {
      /** The merchant's payout delay, rolling reserve and payout schedule (the defaults when none were set). */
      get: (merchantId: number) => request<{ readonly data: JsonObject }>("GET", `/merchants/${merchantId}/payout-settings`),
      /** Replaces them as a whole, wire names (`payout_delay_days`, `reserve_percent`...); a field left out takes its default. */
      replace: (merchantId: number, settings: JsonObject) =>
        request<{ readonly data: JsonObject }>("PUT", `/merchants/${merchantId}/payout-settings`, settings)
    },
    checkoutFrames: {
      /** The https origins allowed to frame the merchant's hosted checkout (CSP frame-ancestors); empty: nobody. */
      get: (merchantId: number) =>
        request<{ readonly merchant_id: number; readonly checkout_frame_ancestors: ReadonlyArray<string> }>("GET", `/merchants/${merchantId}/checkout-frame-ancestors`),
      replace: (merchantId: number, origins: ReadonlyArray<string>) =>
        request<{ readonly merchant_id: number; readonly checkout_frame_ancestors: ReadonlyArray<string> }>(
          "PUT",
          `/merchants/${merchantId}/checkout-frame-ancestors`,
          { checkout_frame_ancestors: origins }
        )
    },
    users: {
      /** Invites a dashboard user: `data.set_password_url` (once, within 24 hours) lets it set its password. */
      create: (merchantId: number, input: { readonly email: string; readonly role: "owner" | "viewer" }) =>
        request<AdminPasswordLink>("POST", `/merchants/${merchantId}/users`, input),
      list: (merchantId: number) => request<{ readonly data: ReadonlyArray<AdminMerchantUser> }>("GET", `/merchants/${merchantId}/users`),
      /** Disabling signs the user out everywhere; enabling makes it active again (invited without a password). */
      setDisabled: (merchantId: number, userId: string, disabled: boolean) =>
        request<{ readonly data: AdminMerchantUser }>("PATCH", `/merchants/${merchantId}/users/${encodeURIComponent(userId)}`, { disabled }),
      delete: (merchantId: number, userId: string) =>
        request<{ readonly data: { readonly id: string; readonly deleted: true } }>("DELETE", `/merchants/${merchantId}/users/${encodeURIComponent(userId)}`),
      /** A fresh set-password link (a forgotten password); earlier links stop working. */
      passwordLink: (merchantId: number, userId: string) =>
        request<AdminPasswordLink>("POST", `/merchants/${merchantId}/users/${encodeURIComponent(userId)}/password-link`)
    },
    wallets: {
      create: (merchantId: number, input: { readonly currency_code: string; readonly environment: "sandbox" | "production" }) =>
        request<AdminWallet>("POST", `/merchants/${merchantId}/wallets`, input),
      list: (merchantId: number) => request<{ readonly data: ReadonlyArray<AdminWallet> }>("GET", `/merchants/${merchantId}/wallets`),
      setActive: (walletId: number, active: boolean) => request<AdminWallet>("PATCH", `/wallets/${walletId}`, { active }),
      adjust: (walletId: number, input: { readonly amount: Money; readonly reason: string }) =>
        request<AdminAdjustment>("POST", `/wallets/${walletId}/adjustments`, input)
    },
    ledger: {
      /** Every account of one book (environment and currency) with its balance, and their sum: zero. */
      trialBalance: (environment: "sandbox" | "production", currency: string) =>
        request<AdminTrialBalance>("GET", `/ledger/trial-balance${query({ environment, currency })}`)
    },
    payouts: {
      /** Every merchant's payouts, newest first; `status: "pending"` is the queue waiting for approval. */
      list: (filters: { readonly status?: "pending" | "approved" | "paid" | "failed" | "rejected"; readonly cursor?: string; readonly limit?: number } = {}) =>
        request<AdminPayoutPage>("GET", `/payouts${query(filters)}`),
      approve: (id: string) => request<{ readonly data: AdminPayout }>("POST", `/payouts/${encodeURIComponent(id)}/approve`),
      /** The amount goes back to the merchant's wallet. */
      reject: (id: string, reason: string) => request<{ readonly data: AdminPayout }>("POST", `/payouts/${encodeURIComponent(id)}/reject`, { reason }),
      markPaid: (id: string, reference: string) =>
        request<{ readonly data: AdminPayout }>("POST", `/payouts/${encodeURIComponent(id)}/mark-paid`, { reference }),
      /** The amount goes back to the merchant's wallet. */
      markFailed: (id: string, reason: string) =>
        request<{ readonly data: AdminPayout }>("POST", `/payouts/${encodeURIComponent(id)}/mark-failed`, { reason })
    },
    disputes: {
      /** Every merchant's disputes, newest first; `status: "needs_response"` are those waiting for evidence. */
      list: (filters: { readonly status?: "needs_response" | "under_review" | "won" | "lost"; readonly cursor?: string; readonly limit?: number } = {}) =>
        request<AdminDisputePage>("GET", `/disputes${query(filters)}`),
      /** Sandbox only: a dispute on a completed payment, for `amount` or all that is left; its amount and the dispute fee leave the wallet at once. */
      openSandbox: (trxId: string, input: { readonly reason: string; readonly amount?: Money }) =>
        request<{ readonly data: AdminDispute }>("POST", `/sandbox/payments/${encodeURIComponent(trxId)}/dispute`, input),
      /** Sandbox only: won gives the amount back to the wallet; the fee stays spent. */
      closeSandbox: (id: string, outcome: "won" | "lost") =>
        request<{ readonly data: AdminDispute }>("POST", `/sandbox/disputes/${encodeURIComponent(id)}/close`, { outcome })
    },
    gateways: {
      create: (input: {
        readonly plugin: string
        readonly name: string
        readonly currency_code: string
        readonly method: string
        readonly type?: "automatic" | "manual"
        readonly active?: boolean
        readonly config?: JsonObject
      }) => request<AdminGateway>("POST", "/gateways", input),
      list: () => request<{ readonly data: ReadonlyArray<AdminGateway> }>("GET", "/gateways"),
      update: (id: number, patch: { readonly name?: string; readonly active?: boolean; readonly type?: "automatic" | "manual"; readonly config?: JsonObject }) =>
        request<AdminGateway>("PATCH", `/gateways/${id}`, patch),
      /** The gateways a merchant offers; an empty list lifts the restriction. */
      select: (merchantId: number, gatewayIds: ReadonlyArray<number>) =>
        request<{ readonly merchant_id: number; readonly gateway_ids: ReadonlyArray<number> }>("PUT", `/merchants/${merchantId}/gateways`, { gateway_ids: gatewayIds })
    },
    settings: {
      get: () => request<AdminSettings>("GET", "/settings"),
      update: (patch: Partial<AdminSettings>) => request<AdminSettings>("PATCH", "/settings", patch)
    },
    deliveries: {
      list: (filter: { readonly merchant_id?: number; readonly status?: string; readonly limit?: number } = {}) =>
        request<{ readonly data: ReadonlyArray<JsonObject> }>("GET", `/webhook-deliveries${query(filter)}`),
      get: (id: string) => request<JsonObject>("GET", `/webhook-deliveries/${encodeURIComponent(id)}`),
      redeliver: (id: string) => request<JsonObject>("POST", `/webhook-deliveries/${encodeURIComponent(id)}/redeliver`)
    },
    payments: {
      /** A payment with its flags, checkout attempts and refunds (and their state at the gateway). */
      get: (trxId: string) => request<{ readonly data: JsonObject }>("GET", `/payments/${encodeURIComponent(trxId)}`),
      flagged: (limit?: number) => request<{ readonly data: ReadonlyArray<JsonObject> }>("GET", `/payments/flagged${query({ limit })}`)
    },
    scheduler: {
      run: () => request<{ readonly data: JsonObject }>("POST", "/scheduler/run")
    },
    audit: {
      /** Every admin change, done or refused, newest first: `since` and `until` are ISO 8601 with an offset. */
      list: (filter: { readonly merchant_id?: number; readonly since?: string; readonly until?: string; readonly limit?: number; readonly cursor?: string } = {}) =>
        request<AdminAuditPage>("GET", `/audit${query(filter)}`)
    },
    clock: {
      get: () => request<JsonObject>("GET", "/clock"),
      advance: (seconds: number) => request<JsonObject>("POST", "/clock/advance", { seconds })
    }
  }
}

export type AdminApi = ReturnType<typeof makeAdminApi>
