import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { fromMillis, type Instant } from "./instant.js"

/**
 * Wall-clock time, whatever business time says. Leases (who may send a webhook, call a gateway) are
 * timed on it: moving a manual clock forward must not end a lease while its holder is still sending,
 * or the same event would go out twice. Business time (due dates, retry delays) stays on `Clock`.
 */
export class RealClock extends Context.Tag("merchant-payments/RealClock")<RealClock, Clock.Clock>() {}

/** Now on the wall clock, as an Instant. */
export const realNow: Effect.Effect<Instant, never, RealClock> = Effect.map(RealClock, (clock) => fromMillis(clock.unsafeCurrentTimeMillis()))

/** The system clock, never a manual one. */
export const layer = Layer.sync(RealClock, () => Clock.make())
