import { HttpRouter } from "@effect/platform"
import { Effect } from "effect"
import { runOnce } from "../../../core/subscriptions/scheduler.js"
import { adminEndpoint } from "../endpoint/admin-endpoint.js"
import { ok } from "../response/api-response.js"
import type { SchedulerReport } from "../contract/admin-resources.js"

/** One scheduler tick now, on business time, under the same lease as the minute loop. */
export const adminSchedulerRoutes = HttpRouter.empty.pipe(
  HttpRouter.post("/scheduler/run", adminEndpoint(Effect.map(runOnce, (report) =>
    ok({
      data: {
        processed: report.processed,
        started: report.started,
        past_due: report.pastDue,
        cancelled: report.cancelled,
        unchanged: report.unchanged,
        failed: report.failed
      }
    } satisfies typeof SchedulerReport.Type))))
)
