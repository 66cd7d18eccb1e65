import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { type Instant, now, plusSeconds } from "../shared/instant.js"
import { atTestClockTime } from "../shared/test-clock-time.js"
import { Transactor } from "../shared/transactor.js"
import { ValidationFailed } from "../shared/validation.js"
import { Ids } from "../signing/random-ids.js"
import { retirePendingInvoices } from "./invoices.js"
import type { Subscription } from "./subscription.js"
import { SubscriptionRepository } from "./subscription-repository.js"
import { TestClockBusy, TestClockLimitReached, TestClockNotFound, TestClockRepository, TestClockSandboxOnly } from "./test-clock.js"

/** A merchant keeps at most this many clocks per environment (sandbox). */
export const MAX_TEST_CLOCKS = 100
/** How far one step may move a clock (and how far from now one may start): a bounded run per request. */
export const CLOCK_HORIZON_SECONDS = 5 * 366 * 24 * 3600
export const MAX_CLOCK_NAME = 100

const sandboxOnly = (caller: MerchantScope) => caller.environment === "sandbox" ? Effect.void : Effect.fail(new TestClockSandboxOnly())

const withinHorizon = (from: Instant, to: Instant) => to <= plusSeconds(from, CLOCK_HORIZON_SECONDS)

/** The caller's clock; another merchant's or environment's does not exist for it. */
export const getTestClock = (caller: MerchantScope, id: string) =>
  Effect.gen(function*() {
    yield* sandboxOnly(caller)
    const found = yield* (yield* TestClockRepository).findScoped(caller.merchant.id, caller.environment, id)
    if (Option.isNone(found)) return yield* new TestClockNotFound({ testClockId: id })
    return found.value
  })

/** Newest first; at most MAX_TEST_CLOCKS exist, so one list holds them all. */
export const listTestClocks = (caller: MerchantScope) =>
  Effect.flatMap(sandboxOnly(caller), () =>
    Effect.flatMap(TestClockRepository, (clocks) => clocks.list(caller.merchant.id, caller.environment, MAX_TEST_CLOCKS)))

/** A clock standing at `frozenTime` (within the horizon of now, either way), `ready`. */
export const createTestClock = (caller: MerchantScope, request: { readonly frozenTime: Instant; readonly name: string | null }) =>
  Effect.gen(function*() {
    yield* sandboxOnly(caller)
    const at = yield* now
    if (!withinHorizon(at, request.frozenTime) || !withinHorizon(request.frozenTime, at)) {
      return yield* ValidationFailed.field("frozenTime", "The frozen time must be within five years of now.")
    }
    const name = request.name?.trim() ?? ""
    if (name.length > MAX_CLOCK_NAME) return yield* ValidationFailed.field("name", `The name may be at most ${MAX_CLOCK_NAME} characters.`)
    const clocks = yield* TestClockRepository
    if ((yield* clocks.count(caller.merchant.id, caller.environment)) >= MAX_TEST_CLOCKS) {
      return yield* new TestClockLimitReached({ what: "test_clocks", limit: MAX_TEST_CLOCKS })
    }
    return yield* clocks.insert({
      id: `clock_${(yield* (yield* Ids).uuid).replaceAll("-", "")}`,
      merchantId: caller.merchant.id,
      environment: caller.environment,
      name: name === "" ? null : name,
      frozenTime: request.frozenTime,
      status: "ready"
    })
  })

/** The subscriptions living on a clock, oldest first. */
export const subscriptionsOnClock = (clockId: string) =>
  Effect.gen(function*() {
    const repo = yield* SubscriptionRepository
    const ids = yield* (yield* TestClockRepository).subscriptionIds(clockId)
    const found = yield* Effect.forEach(ids, (id) => repo.findById(id))
    return found.flatMap((subscription): ReadonlyArray<Subscription> => Option.isSome(subscription) ? [subscription.value] : [])
  })

/**
 * Deletes the clock and its objects, in one transaction: each subscription's pending invoices are
 * retired at the clock's time as an immediate cancel retires them (their payments end, so no link
 * can still be paid), then the subscriptions and invoice rows go, then the clock. Payments and
 * their ledger entries stay: money history is never deleted. A clock being advanced is busy (409).
 */
export const deleteTestClock = (caller: MerchantScope, id: string) =>
  Effect.gen(function*() {
    const clock = yield* getTestClock(caller, id)
    const { withTransaction } = yield* Transactor
    yield* withTransaction(Effect.gen(function*() {
      const clocks = yield* TestClockRepository
      // Claiming the clock keeps an advance (or a second delete) from starting meanwhile.
      const claimed = yield* clocks.update(clock.id, ["ready", "internal_failure"], { status: "advancing" }, yield* now)
      if (Option.isNone(claimed)) return yield* new TestClockBusy({ status: "advancing" })
      const repo = yield* SubscriptionRepository
      yield* atTestClockTime(claimed.value.frozenTime)(Effect.gen(function*() {
        const at = yield* now
        for (const subscriptionId of yield* clocks.subscriptionIds(clock.id)) {
          // Under each subscription's lock, as every writer of it.
          yield* repo.findByIdForUpdate(subscriptionId)
          yield* retirePendingInvoices(subscriptionId, at)
        }
      }))
      yield* clocks.deleteObjects(clock.id)
      yield* clocks.delete(clock.id)
    }))
    return clock
  })
