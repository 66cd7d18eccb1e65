import { HttpRouter } from "@effect/platform"
import { Effect, Option } from "effect"
import { toIsoString } from "../../../core/shared/instant.js"
import { ManualClockControl } from "../../../core/shared/manual-clock.js"
import { adminEndpoint } from "../admin-endpoint.js"
import { ok } from "../api-response.js"
import { BodyFields } from "../body-fields.js"
import { RouteNotFound } from "../edge-errors.js"
import { jsonObjectBody } from "../request-body.js"

/** The manual clock, or a 404 as if these routes did not exist (CLOCK is not manual). */
const manualClock = Effect.flatMap(Effect.serviceOption(ManualClockControl), Option.match({
  onNone: () => Effect.fail(new RouteNotFound()),
  onSome: Effect.succeed
}))

const TEN_YEARS_SECONDS = 10 * 366 * 24 * 60 * 60

export const adminClockRoutes = HttpRouter.empty.pipe(
  HttpRouter.get("/clock", adminEndpoint(Effect.gen(function*() {
    const clock = yield* manualClock
    return ok({ now: toIsoString(yield* clock.now) })
  }))),
  HttpRouter.post("/clock/advance", adminEndpoint(Effect.gen(function*() {
    const clock = yield* manualClock
    const fields = new BodyFields(yield* jsonObjectBody)
    // Business time only moves forward: entries already written keep their order.
    const seconds = fields.integer("seconds", { required: true, min: 1, max: TEN_YEARS_SECONDS })
    yield* fields.done(() => undefined)
    return ok({ now: toIsoString(yield* clock.advance(seconds!)) })
  })))
)
