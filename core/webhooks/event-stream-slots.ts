import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { RealClock } from "../shared/real-clock.js"

/** All of a merchant's open event streams in one environment are taken: one must close first. */
export class EventStreamLimitReached extends Schema.TaggedError<EventStreamLimitReached>()("EventStreamLimitReached", {
  limit: Schema.Number,
  retryAfterSeconds: Schema.Number
}) {}

export interface EventStreamSettings {
  /** Open streams per merchant and environment, on one host. */
  readonly limit: number
  /** After this long the host ends a stream; the client reconnects with Last-Event-ID and misses nothing. */
  readonly maxLifeMillis: number
  /** How often the log is read for new events: the store, so an event committed on any host is seen. */
  readonly pollMillis: number
  /** A comment this often keeps proxies and the client from taking a quiet stream for a dead one. */
  readonly heartbeatMillis: number
}

export const DEFAULT_EVENT_STREAM_SETTINGS: EventStreamSettings = {
  limit: 5,
  maxLifeMillis: 30 * 60_000,
  pollMillis: 300,
  heartbeatMillis: 15_000
}

/**
 * The host's count of open event streams. Kept in memory: a stream is a connection to this host, and
 * ends with it. A slot a stream never gave back (a connection dropped before its answer began) lapses
 * a minute after the stream's longest life.
 */
export class EventStreamSlots extends Context.Tag("merchant-payments/EventStreamSlots")<EventStreamSlots, {
  readonly settings: EventStreamSettings
  /** Takes a slot of `key` (merchant and environment); the effect answered gives it back, once. */
  readonly acquire: (key: string) => Effect.Effect<Effect.Effect<void>, EventStreamLimitReached>
}>() {}

export const layer = (settings: Partial<EventStreamSettings> = {}) =>
  Layer.effect(EventStreamSlots, Effect.map(RealClock, (clock) => {
    const resolved = { ...DEFAULT_EVENT_STREAM_SETTINGS, ...settings }
    const open = new Map<string, Map<symbol, number>>()
    const live = (key: string, nowMillis: number) => {
      const slots = open.get(key) ?? new Map<symbol, number>()
      for (const [slot, lapsesAt] of slots) if (lapsesAt <= nowMillis) slots.delete(slot)
      open.set(key, slots)
      return slots
    }
    return EventStreamSlots.of({
      settings: resolved,
      acquire: (key) =>
        Effect.gen(function*() {
          // On the wall clock, as leases are: a manual clock moved on must not free a slot still held.
          const nowMillis = clock.unsafeCurrentTimeMillis()
          const slots = live(key, nowMillis)
          if (slots.size >= resolved.limit) {
            const soonest = Math.min(...slots.values())
            // The soonest a slot is sure to be free: when the oldest stream reaches its longest life.
            const retryAfterSeconds = Math.max(1, Math.ceil((soonest - 60_000 - nowMillis) / 1000))
            return yield* new EventStreamLimitReached({ limit: resolved.limit, retryAfterSeconds })
          }
          const slot = Symbol(key)
          slots.set(slot, nowMillis + resolved.maxLifeMillis + 60_000)
          return Effect.sync(() => {
            slots.delete(slot)
            if (slots.size === 0 && open.get(key) === slots) open.delete(key)
          })
        })
    })
  }))
