import { dayAfter } from "../../../../core/subscriptions/dunning-plan.js"
import type { Subscription } from "../../../../core/subscriptions/subscription.js"
import { html } from "../../pages/html.js"
import { factRow } from "../page-parts.js"
import { timeText } from "../page-text.js"

const FINAL_ACTIONS = { cancel: "cancel the subscription", stay_past_due: "leave it past due and stop reminding" } as const

/**
 * A past_due subscription's dunning campaign: when it began, what is done and what comes next,
 * and when. Nothing for a subscription that is not past_due; a past_due one without a campaign
 * (its final action left it so, or it fell due before dunning existed) says so.
 */
export const dunningCard = (subscription: Subscription) => {
  if (subscription.status !== "past_due") return ""
  const d = subscription.dunning
  if (d === null) {
    return html`<section class="card" aria-labelledby="dunning"><h2 id="dunning">Dunning</h2><p>No reminders are scheduled: the invoice stays payable through renew until the customer pays or the subscription is cancelled.</p></section>`
  }
  const reminders = d.reminderDays.length
  const next = d.step < reminders
    ? `Reminder ${d.step + 1} of ${reminders} (day ${d.reminderDays[d.step]})`
    : `Final action: ${FINAL_ACTIONS[d.finalAction]}`
  const sent = d.reminderDays.slice(0, d.step).map((day) => `day ${day}`).join(", ")
  return html`<section class="card" aria-labelledby="dunning"><h2 id="dunning">Dunning</h2><table><tbody>${[
    factRow("Started", timeText(d.startedAt)),
    factRow("Reminders sent", d.step === 0 ? `None yet, of ${reminders}` : `${d.step} of ${reminders} (${sent})`),
    factRow("Next step", next),
    factRow("Next step at", timeText(d.nextAt)),
    factRow("Grace ends", html`${timeText(dayAfter(d.startedAt, d.graceDays))} <span class="muted">then ${FINAL_ACTIONS[d.finalAction]}</span>`)
  ]}</tbody></table><p class="muted">A payment of the invoice stops the campaign.</p></section>`
}
