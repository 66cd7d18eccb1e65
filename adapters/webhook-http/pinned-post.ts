import * as http from "node:http"
import * as https from "node:https"
import type { LookupFunction } from "node:net"
import * as Effect from "effect/Effect"
import type { PinnedTarget } from "./pinned-lookup.js"

/** How the exchange ended, before the sender adds the duration. */
export type ExchangeOutcome =
  | { readonly _tag: "Responded"; readonly statusCode: number }
  | { readonly _tag: "Failed"; readonly error: string }

export interface PinnedPost {
  readonly url: URL
  readonly target: PinnedTarget
  readonly body: string
  readonly headers: Readonly<Record<string, string>>
  /** What is left of the attempt's budget: covers connecting and the response head. */
  readonly budgetMs: number
  /** The configured timeout, named in the error so operators recognise their setting. */
  readonly timeoutMs: number
}

/** Enough to drain a typical error page; a receiver streaming more is cut off, not buffered. */
export const maxResponseBytes = 64 * 1024

/**
 * Hands Node the already checked address instead of resolving the name again at connect time,
 * which is what DNS rebinding relies on. Node 20 asks for `all` when it races address families.
 */
const lookupPinned = (target: PinnedTarget): LookupFunction => (_hostname, options, callback) => {
  // Asynchronous like dns.lookup: net expects the callback after connect() has returned.
  process.nextTick(() =>
    options.all === true
      ? callback(null, [{ address: target.address, family: target.family }])
      : callback(null, target.address, target.family)
  )
}

/** One line, bounded: error text goes into the delivery log, and a stack or a header must not. */
const networkError = (error: unknown): string => {
  const message = error instanceof Error ? error.message : String(error)
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined
  const line = message.split("\n")[0]?.trim() || code || "network error"
  return line.length > 300 ? `${line.slice(0, 300)}...` : line
}

/**
 * POSTs the body to the pinned address, with the URL's own host name kept for the Host header and
 * TLS (SNI and certificate check). Redirects are never followed: Node's client does not, and a 3xx
 * is reported as it came.
 */
export const postPinned = (post: PinnedPost): Effect.Effect<ExchangeOutcome> =>
  Effect.async<ExchangeOutcome>((resume) => {
    let settled = false
    let statusCode: number | undefined
    let request: http.ClientRequest | undefined
    const settle = (outcome: ExchangeOutcome) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      request?.destroy()
      resume(Effect.succeed(outcome))
    }
    // A receiver that already answered with a status has answered, even if its body then stalls.
    const timer = setTimeout(() =>
      settle(
        statusCode === undefined
          ? { _tag: "Failed", error: `timeout after ${post.timeoutMs} ms` }
          : { _tag: "Responded", statusCode }
      ), Math.max(1, post.budgetMs))

    const isHttps = post.url.protocol === "https:"
    try {
      request = (isHttps ? https.request : http.request)({
        method: "POST",
        hostname: post.target.hostname,
        port: post.url.port === "" ? undefined : Number(post.url.port),
        path: `${post.url.pathname}${post.url.search}`,
        headers: post.headers,
        lookup: lookupPinned(post.target),
        // A fresh connection per attempt: a pooled socket would bypass this attempt's pinning.
        agent: false,
        ...(isHttps && post.target.hostname !== post.target.address ? { servername: post.target.hostname } : {})
      })
    } catch (error) {
      // Invalid header names or values throw here; the code alone, as Node's text can quote a value.
      const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "error"
      settle({ _tag: "Failed", error: `invalid request: ${code}` })
      return
    }

    request.on("error", (error) => settle({ _tag: "Failed", error: networkError(error) }))
    request.on("response", (response) => {
      const status = response.statusCode ?? 0
      statusCode = status
      let received = 0
      const done = () => settle({ _tag: "Responded", statusCode: status })
      response.on("data", (chunk: Buffer) => {
        received += chunk.length
        if (received >= maxResponseBytes) done()
      })
      response.on("end", done)
      response.on("error", done)
      response.on("aborted", done)
    })
    request.end(post.body)

    return Effect.sync(() => {
      settled = true
      clearTimeout(timer)
      request?.destroy()
    })
  })
