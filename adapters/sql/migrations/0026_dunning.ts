import { runDdl } from "./dialect-ddl.js"

/**
 * Dunning (issue 36, item 3): a past_due subscription's running campaign lives on its row. The
 * campaign keeps the merchant's terms as they were when it began (reminder days, grace, final
 * action), so a settings change never reshuffles one half way. `next_dunning_at` is one of the
 * inputs of `wake_at`, the scheduler's queue; no index of its own. All null: no campaign.
 */
export default runDdl([
  `ALTER TABLE subscriptions ADD COLUMN dunning_started_at BIGINT`,
  `ALTER TABLE subscriptions ADD COLUMN dunning_step INTEGER`,
  `ALTER TABLE subscriptions ADD COLUMN next_dunning_at BIGINT`,
  `ALTER TABLE subscriptions ADD COLUMN dunning_reminder_days TEXT`,
  `ALTER TABLE subscriptions ADD COLUMN dunning_grace_days INTEGER`,
  `ALTER TABLE subscriptions ADD COLUMN dunning_final_action TEXT`
])
