import * as Schema from "effect/Schema"
import { TestClockStatus } from "../../../core/subscriptions/test-clock.js"
import { MAX_CLOCK_NAME } from "../../../core/subscriptions/test-clocks.js"
import { dataOf, listOf } from "./envelopes.js"
import { dateTime, string } from "./field-rules.js"
import { bodyContract } from "./read-body.js"
import { Environment, Timestamp } from "./value-schemas.js"

/** The bodies and answers of /api/v1/test-clocks (issue 36: sandbox clocks per merchant). */

export const createTestClockBody = bodyContract("CreateTestClockRequest", "A sandbox clock that subscriptions created on it live on.", {
  frozen_time: dateTime({ required: true, max: 64, description: "Where the clock stands; within five years of now.", examples: ["2030-01-31T09:30:00Z"] }),
  name: string({ max: MAX_CLOCK_NAME, description: "The merchant's own label.", examples: ["Monthly plan walkthrough"] })
})

export const advanceTestClockBody = bodyContract("AdvanceTestClockRequest", "Where the clock moves to.", {
  frozen_time: dateTime({
    required: true,
    max: 64,
    description: "Later than the clock's frozen time, by at most five years.",
    examples: ["2030-02-28T09:30:00Z"]
  })
})

const TestClock = Schema.Struct({
  id: Schema.String.annotations({ examples: ["clock_0123456789abcdef0123456789abcdef"] }),
  name: Schema.NullOr(Schema.String),
  environment: Environment,
  frozen_time: Timestamp,
  status: TestClockStatus.annotations({ description: "`advancing` while an advance runs; `internal_failure` when one could not finish (advance again to retry)." }),
  created_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "TestClock", description: "A sandbox clock: its subscriptions live on its frozen time." })

export const TestClockEnvelope = dataOf(TestClock, "TestClockAnswer")
export const TestClockList = listOf(TestClock, "TestClockList")
export const DeletedTestClock = dataOf(
  Schema.Struct({ id: Schema.String, deleted: Schema.Literal(true) }).annotations({ identifier: "DeletedTestClock" }),
  "DeletedTestClockAnswer"
)
