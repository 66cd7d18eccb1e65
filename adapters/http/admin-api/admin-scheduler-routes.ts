import * as Effect from "effect/Effect"
import { runOnce } from "../../../core/subscriptions/scheduler.js"
import { runMoneyOutOnce } from "../../../core/balances/money-out-scheduler.js"
import { endpoint } from "../endpoint/endpoint.js"
import * as Resources from "../contract/admin-resources.js"

/** One scheduler tick now, on business time, under the same lease as the minute loop. */
const run = endpoint({
  method: "post",
  path: "/admin/v1/scheduler/run",
  operationId: "runScheduler",
  summary: "One subscription scheduler tick now",
  tag: "Admin: scheduler",
  security: "admin",
  success: { status: 200, description: "What the tick did.", schema: Resources.SchedulerReport },
  errors: ["SchedulerBusy"],
  commitsAsItGoes: true,
  handler: Effect.map(runOnce, (report) => ({
    data: {
      processed: report.processed,
      started: report.started,
      past_due: report.pastDue,
      cancelled: report.cancelled,
      unchanged: report.unchanged,
      failed: report.failed
    }
  }))
})

/** One money-out pass now, on business time, under its own lease beside the subscription tick's. */
const runMoneyOut = endpoint({
  method: "post",
  path: "/admin/v1/scheduler/money-out/run",
  operationId: "runMoneyOut",
  summary: "One money-out pass now: reserve releases, balance announcements and automatic payouts",
  tag: "Admin: scheduler",
  security: "admin",
  success: { status: 200, description: "What the pass did.", schema: Resources.MoneyOutReport },
  errors: ["SchedulerBusy"],
  commitsAsItGoes: true,
  handler: Effect.map(runMoneyOutOnce, (report) => ({
    data: { reserves_released: report.reservesReleased, automatic_payouts: report.automaticPayouts, balances_announced: report.balancesAnnounced }
  }))
})

/** docs/admin-api.md, the scheduler. */
export const adminSchedulerEndpoints = [run, runMoneyOut] as const
