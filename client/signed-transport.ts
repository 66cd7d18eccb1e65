import { randomUUID } from "node:crypto"
import { setTimeout as sleep } from "node:timers/promises"
import { signRequest } from "../core/signing/request-signature.js"
import type { Environment } from "./api-types.js"
import { isApiErrorBody, MerchantApiError, MerchantTransportError, normalizeErrorBody, type TransportFailure } from "./client-errors.js"
import { encodeRequestBody, parseResponseBody } from "./exact-json.js"
import { type AttemptResult, type BackoffSettings, parseRetryAfter, retryDelay } from "./retry-policy.js"

/** The part of `fetch` the client uses; a wrapper (to log, record or route calls) needs no more. */
export type FetchFunction = (url: string, init: RequestInit) => Promise<Response>

export interface TransportSettings {
  readonly baseUrl: string
  readonly merchantKey: string
  readonly apiKey: string
  readonly clientSecret: string
  readonly environment: Environment
  readonly timeoutMs: number
  readonly retries: number
  readonly fetch: FetchFunction
  readonly backoff: BackoffSettings
}

export interface CallOptions {
  /** Sent on every attempt of this call (POST only); default a fresh random UUID per call. */
  readonly idempotencyKey?: string
  /** Cancels the call, waits between attempts included; the call then rejects with the signal's reason. */
  readonly signal?: AbortSignal
}

export interface CallSpec {
  readonly method: "GET" | "POST" | "PUT" | "DELETE"
  /** Below the base URL: `/api/v1/...`, query included, path parameters already encoded. */
  readonly path: string
  readonly body?: object
  readonly options?: CallOptions | undefined
}

/** The URL called: the base URL's own path (an embedding's mount point) followed by the API path. */
export const targetUrl = (baseUrl: string, path: string): URL => {
  const base = new URL(baseUrl)
  return new URL(`${base.pathname.replace(/\/+$/, "")}${path}`, base.origin)
}

/** Who signs, and where: what signing a request needs of the settings. */
export type SigningSettings = Pick<TransportSettings, "merchantKey" | "apiKey" | "clientSecret" | "environment">

/**
 * The headers of one signed request (spec 5): the credentials, a fresh X-Timestamp and the signature
 * over method, the full path with its query, and the exact body. A streaming GET (`listen`) signs
 * with these as every call does.
 */
export const signedHeaders = (settings: SigningSettings, method: string, pathWithQuery: string, raw: string): Record<string, string> => {
  const timestamp = String(Math.floor(Date.now() / 1000))
  return {
    "x-environment": settings.environment,
    "x-merchant-key": settings.merchantKey,
    "x-api-key": settings.apiKey,
    "x-timestamp": timestamp,
    "x-signature": signRequest(settings.clientSecret, { timestamp, method, pathWithQuery, rawBody: raw })
  }
}

type Attempt =
  | { readonly kind: "answer"; readonly response: Response; readonly text: string }
  | { readonly kind: "no-answer"; readonly reason: TransportFailure; readonly error: unknown }

/**
 * Signed calls with retries (spec 5, 7.1): each attempt is signed afresh (a new X-Timestamp) over the
 * exact bytes it sends and the full path it calls, with its own timeout; a POST's Idempotency-Key
 * stays the same on every attempt, so a repeat can never act twice.
 */
export const makeTransport = (settings: TransportSettings) => {
  const attempt = async (url: URL, method: string, headers: Record<string, string>, raw: string, caller: AbortSignal | undefined): Promise<Attempt> => {
    const timeout = AbortSignal.timeout(settings.timeoutMs)
    const signal = caller === undefined ? timeout : AbortSignal.any([timeout, caller])
    try {
      const response = await settings.fetch(url.href, { method, headers, body: raw === "" ? null : raw, signal, redirect: "manual" })
      return { kind: "answer", response, text: await response.text() }
    } catch (error) {
      if (caller?.aborted === true) throw caller.reason
      return { kind: "no-answer", reason: timeout.aborted ? "timeout" : "network", error }
    }
  }

  return async <T>(spec: CallSpec): Promise<T> => {
    const url = targetUrl(settings.baseUrl, spec.path)
    const pathWithQuery = `${url.pathname}${url.search}`
    // A PUT replaces a whole resource: repeating it is harmless, so it carries a body but no Idempotency-Key.
    const raw = spec.method === "POST" || spec.method === "PUT" ? encodeRequestBody(spec.body ?? {}) : ""
    const idempotencyKey = spec.method === "POST" ? spec.options?.idempotencyKey ?? randomUUID() : undefined
    const caller = spec.options?.signal
    for (let retry = 0;; retry++) {
      const headers: Record<string, string> = {
        accept: "application/json",
        ...signedHeaders(settings, spec.method, pathWithQuery, raw),
        ...(raw === "" ? {} : { "content-type": "application/json" }),
        ...(idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey })
      }
      const result = await attempt(url, spec.method, headers, raw, caller)
      const attempts = retry + 1
      let outcome: AttemptResult
      let failure: Error
      if (result.kind === "no-answer") {
        outcome = result
        failure = new MerchantTransportError(result.reason, spec.method, pathWithQuery, attempts, idempotencyKey, { cause: result.error })
      } else {
        const { response, text } = result
        const status = response.status
        if (status >= 200 && status < 300) {
          try {
            return parseResponseBody(text) as T
          } catch {
            throw new MerchantApiError({
              status, method: spec.method, path: pathWithQuery, body: undefined, retryAfterMs: undefined, attempts,
              problem: `${spec.method} ${pathWithQuery} answered HTTP ${status} with a body that is not JSON.`
            })
          }
        }
        const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), Date.now())
        outcome = { kind: "answer", status, retryAfterMs }
        failure = new MerchantApiError({ status, method: spec.method, path: pathWithQuery, body: errorBodyOf(text), retryAfterMs, attempts })
      }
      const delay = retryDelay(outcome, retry, settings.retries, settings.backoff)
      if (delay === undefined) throw failure
      await pause(delay, caller)
    }
  }
}

const errorBodyOf = (text: string) => {
  try {
    const parsed = parseResponseBody(text)
    return isApiErrorBody(parsed) ? normalizeErrorBody(parsed) : undefined
  } catch {
    return undefined
  }
}

const pause = async (ms: number, caller: AbortSignal | undefined): Promise<void> => {
  if (ms <= 0 && caller === undefined) return
  try {
    await sleep(ms, undefined, caller === undefined ? {} : { signal: caller })
  } catch (error) {
    throw caller?.aborted === true ? caller.reason : error
  }
}
