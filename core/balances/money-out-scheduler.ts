import type * as Duration from "effect/Duration"
import type * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { fromMillis, now, plusSeconds } from "../shared/instant.js"
import { Ids } from "../signing/random-ids.js"
import { SchedulerLease } from "../subscriptions/scheduler-lease.js"
import { SchedulerBusy, SchedulerConfig } from "../subscriptions/scheduler.js"
import { announceAvailableBalances } from "./balance-announcements.js"
import { runAutomaticPayouts } from "./automatic-payouts.js"
import { releaseDueReserves } from "./reserve-holds.js"

/** What one money-out pass did. */
export interface MoneyOutReport {
  readonly reservesReleased: number
  readonly automaticPayouts: number
  /** Books announced `balance.available` because pending payments passed their delay. */
  readonly balancesAnnounced: number
}

const LEASE_NAME = "money-out-scheduler"
const LEASE_SECONDS = 300

/**
 * One pass on business time: reserve holds whose time is up go back to their wallets, the books whose
 * pending payments passed their delay are announced, then the periods' automatic payouts.
 */
export const moneyOutTick = (batchSize: number) =>
  Effect.gen(function*() {
    const at = yield* now
    const reservesReleased = yield* releaseDueReserves(at, batchSize)
    const balancesAnnounced = yield* announceAvailableBalances(at, batchSize)
    const automaticPayouts = yield* runAutomaticPayouts(at)
    return { reservesReleased, automaticPayouts, balancesAnnounced } satisfies MoneyOutReport
  })

/**
 * One pass now under the store's lease, as the subscription scheduler's tick runs (its holder, real
 * clock and batch size): SchedulerBusy while another host runs one. Releasing once and paying once
 * per period do not rest on the lease (each is a conditional write in the store); the lease only
 * spares hosts the work of finding that out.
 */
export const runMoneyOutOnce = Effect.gen(function*() {
  const { batchSize, holder, realClock } = yield* SchedulerConfig
  const lease = yield* SchedulerLease
  const runHolder = `${holder}/${yield* (yield* Ids).uuid}`
  const realNow = fromMillis(realClock.unsafeCurrentTimeMillis())
  if (!(yield* lease.acquire(LEASE_NAME, runHolder, realNow, plusSeconds(realNow, LEASE_SECONDS)))) {
    return yield* new SchedulerBusy()
  }
  return yield* moneyOutTick(batchSize).pipe(Effect.ensuring(Effect.ignore(lease.release(LEASE_NAME, runHolder))))
})

/** A pass every `interval` (a minute) beside the subscription scheduler's; a pass another host is running is skipped. */
export const loopLayer = (options: { readonly interval?: Duration.DurationInput; readonly clock?: Clock.Clock } = {}) =>
  Layer.scopedDiscard(Effect.gen(function*() {
    const pass = runMoneyOutOnce.pipe(
      Effect.tap((report) =>
        report.reservesReleased + report.automaticPayouts + report.balancesAnnounced > 0 ? Effect.logInfo("money-out scheduler pass", report) : Effect.void),
      Effect.catchTag("SchedulerBusy", () => Effect.void),
      Effect.catchAllCause((cause) => Effect.logWarning("money-out scheduler pass failed; retrying next minute", cause))
    )
    const scheduled = Effect.repeat(pass, Schedule.spaced(options.interval ?? "1 minute"))
    yield* Effect.forkScoped(options.clock === undefined ? scheduled : Effect.withClock(scheduled, options.clock))
  }))
