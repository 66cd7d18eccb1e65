import { performance } from "node:perf_hooks"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { currentTraceparent } from "../../core/shared/trace-context.js"
import { WebhookTargets } from "../../core/webhooks/target-rule.js"
import { type OutgoingWebhook, type SendResult, WebhookSender } from "../../core/webhooks/webhook-sender.js"
import { LookupFailed, pinTarget, type ResolveAll } from "./pinned-lookup.js"
import { postPinned } from "./pinned-post.js"

export interface HttpWebhookSenderOptions {
  /** One attempt's whole budget: DNS, connect and the response head. */
  readonly timeoutMs: number
  /** Only for local development and tests: lets webhooks reach loopback and private networks. */
  readonly allowPrivateTargets: boolean
  readonly userAgent?: string
  /** Replaces the system resolver (dns.lookup); for hosts with their own resolution rules. */
  readonly resolveAll?: ResolveAll
}

export const defaultUserAgent = "merchant-payments-webhooks/1.0"

// Set by the sender from the body, the connection and the current span; a caller's value would
// desynchronise framing or join another trace.
const senderOwnedHeaders = new Set([
  "host",
  "content-length",
  "content-type",
  "transfer-encoding",
  "connection",
  "expect",
  "user-agent",
  "traceparent",
  "tracestate"
])

const requestHeaders = (webhook: OutgoingWebhook, userAgent: string, traceparent: string | undefined): Record<string, string> => ({
  ...Object.fromEntries(
    Object.entries(webhook.headers).filter(([name]) => !senderOwnedHeaders.has(name.toLowerCase()))
  ),
  "content-type": "application/json",
  "content-length": String(Buffer.byteLength(webhook.body, "utf8")),
  "user-agent": userAgent,
  // The receiver's trace joins the attempt's; sent only while the host traces.
  ...(traceparent !== undefined ? { traceparent } : {})
})

const parseUrl = (text: string): URL | undefined => {
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

/** Sends one attempt; every outcome, a refusal included, comes back as a SendResult. */
export const make = (options: HttpWebhookSenderOptions) => {
  const userAgent = options.userAgent ?? defaultUserAgent
  const pinOptions = {
    allowPrivateTargets: options.allowPrivateTargets,
    ...(options.resolveAll === undefined ? {} : { resolveAll: options.resolveAll })
  }

  const send = (webhook: OutgoingWebhook): Effect.Effect<SendResult> =>
    Effect.suspend(() => {
      const startedAt = performance.now()
      const elapsed = () => performance.now() - startedAt
      const failed = (error: string): SendResult => ({ _tag: "Failed", error, durationMs: elapsed() })
      const url = parseUrl(webhook.url)
      if (url === undefined) return Effect.succeed(failed("invalid URL"))

      return pinTarget(url, pinOptions).pipe(
        // getaddrinfo cannot be cancelled, but the attempt stops waiting for it within its budget.
        Effect.timeoutFail({
          duration: Duration.millis(options.timeoutMs),
          onTimeout: () => new LookupFailed({ message: `timeout after ${options.timeoutMs} ms` })
        }),
        Effect.flatMap((target) => Effect.map(currentTraceparent, (traceparent) => ({ target, traceparent }))),
        Effect.flatMap(({ target, traceparent }) =>
          postPinned({
            url,
            target,
            body: webhook.body,
            headers: requestHeaders(webhook, userAgent, traceparent),
            budgetMs: options.timeoutMs - elapsed(),
            timeoutMs: options.timeoutMs
          })
        ),
        Effect.map((outcome): SendResult =>
          outcome._tag === "Responded"
            ? { _tag: "Responded", statusCode: outcome.statusCode, durationMs: elapsed() }
            : failed(outcome.error)
        ),
        Effect.catchTags({
          TargetRefused: (refused) =>
            Effect.succeed({
              ...failed(
                refused.address === undefined
                  ? `refused target: ${refused.reason}`
                  : `refused target: ${refused.reason} (${refused.address})`
              ),
              permanent: true
            }),
          LookupFailed: (lookup) => Effect.succeed(failed(lookup.message))
        })
      )
    })

  return WebhookSender.of({ send })
}

/**
 * The outbound webhook sender over node:http / node:https, guarded against SSRF; whether private
 * targets are allowed is the kit's one WebhookTargets setting, the same initiate reads.
 */
export const layer = (options: Omit<HttpWebhookSenderOptions, "allowPrivateTargets">): Layer.Layer<WebhookSender> =>
  Layer.effect(WebhookSender, Effect.map(WebhookTargets, (targets) => make({ ...options, allowPrivateTargets: targets.allowPrivateTargets })))
