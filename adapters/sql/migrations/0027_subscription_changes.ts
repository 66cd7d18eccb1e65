import { runDdl } from "./dialect-ddl.js"

/**
 * Trials, plan changes and pauses (issue 36, item 4) on the subscription row: the trial's end and
 * its pending notice, the billing anchor when it moved from starts_at, the pause, a change waiting
 * for the next period, and the proration credit (money scale, whole minor units; negative: a charge too small
 * to invoice alone, carried onto the next invoice).
 * Their times are inputs of `wake_at` (core/subscriptions/wake.ts); no index of their own.
 */
export default runDdl([
  `ALTER TABLE subscriptions ADD COLUMN trial_end BIGINT`,
  `ALTER TABLE subscriptions ADD COLUMN trial_notice_at BIGINT`,
  `ALTER TABLE subscriptions ADD COLUMN billing_anchor BIGINT`,
  `ALTER TABLE subscriptions ADD COLUMN paused_at BIGINT`,
  `ALTER TABLE subscriptions ADD COLUMN resumes_at BIGINT`,
  `ALTER TABLE subscriptions ADD COLUMN pending_amount BIGINT`,
  `ALTER TABLE subscriptions ADD COLUMN pending_cycle TEXT`,
  `ALTER TABLE subscriptions ADD COLUMN credit BIGINT NOT NULL DEFAULT 0`
])
