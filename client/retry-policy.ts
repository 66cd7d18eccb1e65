/**
 * When a merchant call is made again, and after how long. Pure: time and randomness come in as
 * arguments, so the rules can be tested without waiting.
 */

export interface BackoffSettings {
  /** The first retry waits up to this long; each later one up to twice the previous ceiling. */
  readonly baseMs: number
  /** No backoff wait exceeds this. */
  readonly capMs: number
  /**
   * A Retry-After longer than this is not waited for: the call fails at once with the answer (its
   * `retryAfterMs` says when to come back). The rate limit's windows are one minute, so 60 s waits
   * for any window the service itself closes.
   */
  readonly maxRetryAfterMs: number
  /** Uniform in [0, 1): the jitter source. */
  readonly random: () => number
}

export const DEFAULT_BACKOFF: BackoffSettings = {
  baseMs: 250,
  capMs: 10_000,
  maxRetryAfterMs: 60_000,
  random: Math.random
}

const DELTA_SECONDS = /^\d+$/
const HAS_LETTER = /[A-Za-z]/

/**
 * A Retry-After header (RFC 9110 10.2.3) as milliseconds from `nowMs`: delta-seconds, or an HTTP
 * date (a date already past is 0). Anything else is undefined, and the caller backs off instead.
 * A date must contain a letter, because `Date.parse` reads bare numbers such as "1.5" as dates.
 */
export const parseRetryAfter = (header: string | null | undefined, nowMs: number): number | undefined => {
  if (header === null || header === undefined) return undefined
  const text = header.trim()
  if (DELTA_SECONDS.test(text)) return Number(text) * 1000
  if (!HAS_LETTER.test(text)) return undefined
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs)
}

/**
 * "Full jitter" exponential backoff: uniform between 0 and min(cap, base * 2^retry), so clients
 * refused together do not come back together. `retry` counts from 0 for the first retry.
 */
export const backoffDelay = (retry: number, settings: Pick<BackoffSettings, "baseMs" | "capMs" | "random">): number =>
  Math.floor(settings.random() * Math.min(settings.capMs, settings.baseMs * 2 ** retry))

/** How an attempt ended: an HTTP answer, or none (a timeout or a network failure). */
export type AttemptResult =
  | { readonly kind: "answer"; readonly status: number; readonly retryAfterMs: number | undefined }
  | { readonly kind: "no-answer" }

/**
 * Whether the identical request is worth sending again. Every call is a GET or a POST carrying an
 * Idempotency-Key, so one that got no answer is always safe to repeat. Of the answers: 429 (rate
 * limited), 503 (checkout creation failed for now, spec 4.9) and a 409 that carries Retry-After,
 * which is how the service says the same key is still running (spec 7.1, "honor Retry-After"): after
 * a timed-out attempt, that is the retry's expected answer. No other 4xx or 5xx is repeated.
 */
export const isRetryable = (result: AttemptResult): boolean => {
  if (result.kind === "no-answer") return true
  if (result.status === 429 || result.status === 503) return true
  return result.status === 409 && result.retryAfterMs !== undefined
}

/**
 * The wait before retry number `retry` (from 0), or undefined when it must not be made: the result
 * is final, the `retries` are spent, or the service asked for a wait longer than the maximum.
 * Retry-After, when given, is honoured as is; otherwise the wait is backoff.
 */
export const retryDelay = (result: AttemptResult, retry: number, retries: number, settings: BackoffSettings): number | undefined => {
  if (retry >= retries || !isRetryable(result)) return undefined
  const asked = result.kind === "answer" ? result.retryAfterMs : undefined
  if (asked === undefined) return backoffDelay(retry, settings)
  return asked <= settings.maxRetryAfterMs ? asked : undefined
}
