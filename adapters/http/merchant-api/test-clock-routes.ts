import * as Effect from "effect/Effect"
import { toIsoString } from "../../../core/shared/instant.js"
import { advanceTestClock } from "../../../core/subscriptions/advance-test-clock.js"
import type { TestClock } from "../../../core/subscriptions/test-clock.js"
import { createTestClock, deleteTestClock, getTestClock, listTestClocks } from "../../../core/subscriptions/test-clocks.js"
import { textInPath } from "../contract/parameters.js"
import { validBody } from "../contract/read-body.js"
import * as Contract from "../contract/test-clock-contracts.js"
import { endpoint } from "../endpoint/endpoint.js"
import { CurrentMerchant } from "../endpoint/merchant-endpoint.js"

/** The one shape of a test clock on the wire. */
export const testClockJson = (clock: TestClock) => ({
  id: clock.id,
  name: clock.name,
  environment: clock.environment,
  frozen_time: toIsoString(clock.frozenTime),
  status: clock.status,
  created_at: toIsoString(clock.createdAt),
  updated_at: toIsoString(clock.updatedAt)
})

const TAG = "Test clocks"
const SANDBOX_ONLY = "Sandbox only: with X-Environment production the answer is 422."
const clockIdInPath = textInPath("testClockId", "The test clock's id.")

const create = endpoint({
  method: "post",
  path: "/api/v1/test-clocks",
  operationId: "createTestClock",
  summary: "Create a sandbox test clock",
  description: `${SANDBOX_ONLY} Subscriptions created with \`test_clock\` set to its id live on its frozen time.`,
  tag: TAG,
  security: "merchant",
  body: Contract.createTestClockBody,
  success: { status: 201, description: "The clock, ready (also for an idempotent replay).", schema: Contract.TestClockEnvelope },
  errors: ["TestClockSandboxOnly", "TestClockLimitReached"],
  handler: Effect.gen(function*() {
    const body = yield* validBody(Contract.createTestClockBody)
    const clock = yield* createTestClock(yield* CurrentMerchant, { frozenTime: body.frozen_time, name: body.name ?? null })
    return { data: testClockJson(clock) }
  })
})

const list = endpoint({
  method: "get",
  path: "/api/v1/test-clocks",
  operationId: "listTestClocks",
  summary: "The merchant's test clocks",
  description: `Newest first (at most 100 exist). ${SANDBOX_ONLY}`,
  tag: TAG,
  security: "merchant",
  success: { status: 200, description: "The clocks.", schema: Contract.TestClockList },
  errors: ["TestClockSandboxOnly"],
  handler: Effect.map(Effect.flatMap(CurrentMerchant, listTestClocks), (clocks) => ({ data: clocks.map(testClockJson) }))
})

const get = endpoint({
  method: "get",
  path: "/api/v1/test-clocks/{testClockId}",
  operationId: "getTestClock",
  summary: "One test clock",
  description: "Another merchant's or environment's id is not found.",
  tag: TAG,
  security: "merchant",
  parameters: [clockIdInPath],
  success: { status: 200, description: "The clock.", schema: Contract.TestClockEnvelope },
  errors: ["TestClockNotFound", "TestClockSandboxOnly"],
  handler: Effect.gen(function*() {
    return { data: testClockJson(yield* getTestClock(yield* CurrentMerchant, yield* clockIdInPath.read)) }
  })
})

const advance = endpoint({
  method: "post",
  path: "/api/v1/test-clocks/{testClockId}/advance",
  operationId: "advanceTestClock",
  summary: "Move a test clock forward, running everything due on it",
  description: "Runs its subscriptions' due work up to `frozen_time` in time order through the scheduler's own code (invoices, period ends, " +
    "cancellations), then answers the clock `ready`; their webhooks go out now, on the deployment's time. A concurrent advance is refused (409). " +
    "A run that cannot finish leaves the clock `internal_failure` (advance again to retry).",
  tag: TAG,
  security: "merchant",
  parameters: [clockIdInPath],
  body: Contract.advanceTestClockBody,
  success: { status: 200, description: "The clock after the run.", schema: Contract.TestClockEnvelope },
  errors: ["TestClockNotFound", "TestClockSandboxOnly", "TestClockBusy"],
  handler: Effect.gen(function*() {
    const { frozen_time } = yield* validBody(Contract.advanceTestClockBody)
    return { data: testClockJson(yield* advanceTestClock(yield* CurrentMerchant, yield* clockIdInPath.read, frozen_time)) }
  })
})

const remove = endpoint({
  method: "delete",
  path: "/api/v1/test-clocks/{testClockId}",
  operationId: "deleteTestClock",
  summary: "Delete a test clock and its objects",
  description: "Its subscriptions and their invoices are deleted; their open checkouts are ended first. Payments made stay in the payment history.",
  tag: TAG,
  security: "merchant",
  parameters: [clockIdInPath],
  success: { status: 200, description: "The clock is gone.", schema: Contract.DeletedTestClock },
  errors: ["TestClockNotFound", "TestClockSandboxOnly", "TestClockBusy"],
  handler: Effect.gen(function*() {
    const clock = yield* deleteTestClock(yield* CurrentMerchant, yield* clockIdInPath.read)
    return { data: { id: clock.id, deleted: true as const } }
  })
})

/** Issue 36, item 1: sandbox test clocks per merchant. */
export const testClockEndpoints = [create, list, get, advance, remove] as const
