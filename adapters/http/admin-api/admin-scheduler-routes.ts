import * as Effect from "effect/Effect"
import { runOnce } from "../../../core/subscriptions/scheduler.js"
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

/** docs/admin-api.md, the scheduler. */
export const adminSchedulerEndpoints = [run] as const
