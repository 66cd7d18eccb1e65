import type { Instant } from "../shared/instant.js"
import type { DunningFinalAction } from "./billing-settings.js"

/**
 * A running dunning campaign, kept on its subscription (issue 36, item 3). The campaign keeps the
 * merchant's terms as they were when it began (reminder days, grace, final action), so a settings
 * change never reshuffles a campaign half way: it applies to campaigns that begin after it.
 */
export interface Dunning {
  /** When the renewal invoice fell due unpaid: every step is counted in days from here. */
  readonly startedAt: Instant
  /** Reminders sent so far (0 when none yet). */
  readonly step: number
  /** When the next step (a reminder, or the final action) is due. */
  readonly nextAt: Instant
  /** Days after `startedAt` a reminder is sent, ascending, all before the grace period ends. */
  readonly reminderDays: ReadonlyArray<number>
  /** Days after `startedAt` the final action is taken. */
  readonly graceDays: number
  readonly finalAction: DunningFinalAction
}
