import { HttpRouter } from "@effect/platform"
import { Effect, Option } from "effect"
import { toIsoString } from "../../../core/shared/instant.js"
import { ManualClockControl } from "../../../core/shared/manual-clock.js"
import { adminEndpoint } from "../endpoint/admin-endpoint.js"
import { ok } from "../response/api-response.js"
import { advanceClockBody } from "../contract/admin-contracts.js"
import type { ClockTime } from "../contract/admin-resources.js"
import { validBody } from "../contract/read-body.js"
import { RouteNotFound } from "../response/edge-errors.js"

/** The manual clock, or a 404 as if these routes did not exist (CLOCK is not manual). */
const manualClock = Effect.flatMap(Effect.serviceOption(ManualClockControl), Option.match({
  onNone: () => Effect.fail(new RouteNotFound()),
  onSome: Effect.succeed
}))

export const adminClockRoutes = HttpRouter.empty.pipe(
  HttpRouter.get("/clock", adminEndpoint(Effect.gen(function*() {
    const clock = yield* manualClock
    return ok({ now: toIsoString(yield* clock.now) } satisfies typeof ClockTime.Type)
  }))),
  HttpRouter.post("/clock/advance", adminEndpoint(Effect.gen(function*() {
    const clock = yield* manualClock
    const { seconds } = yield* validBody(advanceClockBody)
    return ok({ now: toIsoString(yield* clock.advance(seconds)) } satisfies typeof ClockTime.Type)
  })))
)
