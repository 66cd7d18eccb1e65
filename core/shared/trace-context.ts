import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Option from "effect/Option"

const TRACE_ID = /^[0-9a-f]{32}$/
const SPAN_ID = /^[0-9a-f]{16}$/

/**
 * The W3C `traceparent` of the current span, for a call that leaves the kit (a webhook, a gateway),
 * so the receiver's trace joins ours. Undefined while tracing is off: the disabled tracer still hands
 * out placeholder spans, whose ids are not W3C ids and must never be sent.
 */
export const currentTraceparent: Effect.Effect<string | undefined> = Effect.gen(function*() {
  if (!(yield* FiberRef.get(FiberRef.currentTracerEnabled))) return undefined
  const span = yield* Effect.option(Effect.currentSpan)
  if (Option.isNone(span)) return undefined
  const { traceId, spanId, sampled } = span.value
  return TRACE_ID.test(traceId) && SPAN_ID.test(spanId) ? `00-${traceId}-${spanId}-${sampled ? "01" : "00"}` : undefined
})
