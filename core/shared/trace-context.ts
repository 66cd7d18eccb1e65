import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import { dual } from "effect/Function"
import * as Option from "effect/Option"
import type * as Tracer from "effect/Tracer"

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

/**
 * `Effect.withSpan`, made only while tracing is on. With tracing off Effect still builds a
 * placeholder span and provides it as the parent (a copy of the fiber's whole context), which a
 * profile showed on every request for nothing anyone reads.
 */
export const withSpanWhenTraced: {
  (name: string, options?: Tracer.SpanOptions): <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  <A, E, R>(self: Effect.Effect<A, E, R>, name: string, options?: Tracer.SpanOptions): Effect.Effect<A, E, R>
} = dual(
  (args) => Effect.isEffect(args[0]),
  <A, E, R>(self: Effect.Effect<A, E, R>, name: string, options?: Tracer.SpanOptions): Effect.Effect<A, E, R> =>
    Effect.withFiberRuntime<A, E, R>((fiber) =>
      fiber.getFiberRef(FiberRef.currentTracerEnabled) ? Effect.withSpan(self, name, options) : self)
)
