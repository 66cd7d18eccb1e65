import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { toIsoString } from "../../../core/shared/instant.js"
import { ManualClockControl } from "../../../core/shared/manual-clock.js"
import { endpoint } from "../endpoint/endpoint.js"
import { advanceClockBody } from "../contract/admin-contracts.js"
import * as Resources from "../contract/admin-resources.js"
import { validBody } from "../contract/read-body.js"
import { RouteNotFound } from "../response/edge-errors.js"

const MANUAL_CLOCK = "Only with CLOCK=manual; otherwise a 404 as if the route did not exist."

/** The manual clock, or a 404 as if these routes did not exist (CLOCK is not manual). */
const manualClock = Effect.flatMap(Effect.serviceOption(ManualClockControl), Option.match({
  onNone: () => Effect.fail(new RouteNotFound()),
  onSome: Effect.succeed
}))

const get = endpoint({
  method: "get",
  path: "/admin/v1/clock",
  operationId: "getClock",
  summary: "The business time",
  description: MANUAL_CLOCK,
  tag: "Admin: clock",
  security: "admin",
  success: { status: 200, description: "Now, on business time.", schema: Resources.ClockTime },
  errors: ["RouteNotFound"],
  handler: Effect.gen(function*() {
    const clock = yield* manualClock
    return { now: toIsoString(yield* clock.now) }
  })
})

const advance = endpoint({
  method: "post",
  path: "/admin/v1/clock/advance",
  operationId: "advanceClock",
  summary: "Move business time forward",
  description: MANUAL_CLOCK,
  tag: "Admin: clock",
  security: "admin",
  body: advanceClockBody,
  success: { status: 200, description: "Now, after the move.", schema: Resources.ClockTime },
  errors: ["RouteNotFound"],
  handler: Effect.gen(function*() {
    const clock = yield* manualClock
    const { seconds } = yield* validBody(advanceClockBody)
    return { now: toIsoString(yield* clock.advance(seconds)) }
  })
})

/** docs/admin-api.md, the manual clock. */
export const adminClockEndpoints = [get, advance] as const
