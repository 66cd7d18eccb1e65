import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { NewAuditEntry } from "../../../core/audit/audit-entry.js"
import { MerchantId, WalletId } from "../../../core/shared/ids.js"
import { sha256Hex } from "../../../core/signing/hmac.js"
import { WalletRepository } from "../../../core/wallets/wallet-repository.js"
import { clientAddress } from "../request/client-address.js"
import { WHOLE_ID } from "../request/path-params.js"
import { requestId } from "../request/request-log.js"

/** What the audit log needs to know of the declaration behind an admin call. */
export interface AuditedOperation {
  readonly operationId: string
  /** The route's template, `/admin/v1/merchants/{id}`. */
  readonly path: string
}

/**
 * The admin token as the log names it: stable across calls, and no help to anyone who reads the
 * log (twelve hex digits of its SHA-256; the token itself carries at least 128 random bits).
 */
export const adminTokenActorId = (token: string): string => `admin:${sha256Hex(token).slice(0, 12)}`

const MAX_FIELDS = 50
const MAX_FIELD_NAME = 100
const utf8 = new TextDecoder("utf-8", { fatal: false })

/**
 * The names of the top-level fields a body sent, sorted; never a value (a body may carry gateway
 * keys). A body that is not a JSON object names none.
 */
export const bodyFieldNames = (raw: Uint8Array): ReadonlyArray<string> => {
  if (raw.length === 0) return []
  let parsed: unknown
  try {
    parsed = JSON.parse(utf8.decode(raw))
  } catch {
    return []
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return []
  return Object.keys(parsed).sort().slice(0, MAX_FIELDS).map((name) => name.slice(0, MAX_FIELD_NAME))
}

const MERCHANT_ROUTE = "/admin/v1/merchants/{id}"
const WALLET_ROUTE = "/admin/v1/wallets/{id}"

const numberField = (body: unknown, name: string): number | undefined => {
  const value = typeof body === "object" && body !== null ? (body as Record<string, unknown>)[name] : undefined
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : undefined
}

const under = (path: string, route: string) => path === route || path.startsWith(`${route}/`)

/**
 * The merchant a change concerns: the one its path names (or whose wallet it names: an adjustment's
 * answer names only the wallet), else the one its answer names (a webhook delivery), else the
 * merchant it created.
 */
const concernedMerchant = (operation: AuditedOperation, method: string, params: Readonly<Record<string, string>>, answer: unknown) =>
  Effect.gen(function*() {
    const id = params["id"]
    if (under(operation.path, MERCHANT_ROUTE)) return id !== undefined && WHOLE_ID.test(id) ? MerchantId(Number(id)) : null
    if (under(operation.path, WALLET_ROUTE)) {
      if (id === undefined || !WHOLE_ID.test(id)) return null
      const wallet = yield* (yield* WalletRepository).findById(WalletId(Number(id)))
      return Option.isSome(wallet) ? wallet.value.merchantId : null
    }
    const named = numberField(answer, "merchant_id") ??
      (operation.path === "/admin/v1/merchants" && method === "POST" ? numberField(answer, "id") : undefined)
    return named === undefined ? null : MerchantId(named)
  })

/** The entry for one admin call answered `status` (with `answer` when it succeeded). */
export const adminAuditEntry = (operation: AuditedOperation, token: string, rawBody: Uint8Array, status: number, answer: unknown) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const params: Record<string, string> = {}
    for (const [name, value] of Object.entries(yield* HttpRouter.params)) if (value !== undefined) params[name] = value
    const entry: NewAuditEntry = {
      actorType: "admin_token",
      actorId: adminTokenActorId(token),
      sourceAddress: yield* clientAddress(request),
      operation: operation.operationId,
      method: request.method,
      route: operation.path,
      pathParams: params,
      merchantId: yield* concernedMerchant(operation, request.method, params, answer),
      status,
      fields: bodyFieldNames(rawBody),
      requestId: yield* requestId
    }
    return entry
  })
