import type * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { now, plusSeconds } from "../shared/instant.js"
import { DashboardSessionRepository } from "./dashboard-session-repository.js"
import { MerchantUserRepository } from "./merchant-user-repository.js"
import { SESSION_ABSOLUTE_SECONDS, SESSION_IDLE_SECONDS } from "./sign-in.js"

export class DashboardPurger extends Context.Tag("merchant-payments/DashboardPurger")<DashboardPurger, {}>() {}

/**
 * An expired session or set-password link is already refused; this deletes it, so the tables hold
 * what can still be used rather than every sign-in ever made. On business time, like the expiry.
 */
export const purgeExpired = Effect.gen(function*() {
  const at = yield* now
  const sessions = yield* (yield* DashboardSessionRepository).deleteExpired(plusSeconds(at, -SESSION_IDLE_SECONDS), plusSeconds(at, -SESSION_ABSOLUTE_SECONDS))
  const links = yield* (yield* MerchantUserRepository).deleteExpiredLinks(at)
  return { sessions, links }
})

export const layer = (options: { readonly interval?: Duration.DurationInput; readonly clock?: Clock.Clock } = {}) =>
  Layer.scoped(
    DashboardPurger,
    Effect.gen(function*() {
      const pass = purgeExpired.pipe(
        Effect.tap(({ links, sessions }) => (sessions + links > 0 ? Effect.logDebug(`removed ${sessions} expired dashboard sessions and ${links} expired password links`) : Effect.void)),
        Effect.catchAllCause((cause) => Effect.logWarning("dashboard session purge failed; retrying later", cause))
      )
      const scheduled = Effect.repeat(pass, Schedule.spaced(options.interval ?? "10 minutes"))
      yield* Effect.forkScoped(options.clock === undefined ? scheduled : Effect.withClock(scheduled, options.clock))
      return DashboardPurger.of({})
    })
  )
