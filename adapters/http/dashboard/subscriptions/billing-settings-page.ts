import { type BillingSettings, DunningFinalAction, MAX_BILLING_DAYS } from "../../../../core/subscriptions/billing-settings.js"
import { html } from "../../pages/html.js"
import { framedPage, formTokenFields, linkTo, type PageFrame } from "../layout.js"
import { noticeBox, problemBox } from "../page-parts.js"

export interface BillingSettingsView {
  readonly frame: PageFrame
  readonly settings: BillingSettings
  /** What the owner sent, shown again when refused. */
  readonly sent?: Readonly<Record<string, string>>
  readonly notice?: string | undefined
  readonly problem?: string | undefined
}

const FINAL_ACTION_LABELS: Readonly<Record<DunningFinalAction, string>> = {
  cancel: "Cancel the subscription",
  stay_past_due: "Leave it past due (stop reminding; the invoice stays payable)"
}

const list = (values: ReadonlyArray<number>) => values.join(", ")

/**
 * The merchant's billing settings (GET/PUT /api/v1/billing-settings): dunning reminders, grace and
 * final action, charge retries, portal cancellation. Owners change them; members read them.
 */
export const billingSettingsPage = (view: BillingSettingsView) => {
  const { frame, settings } = view
  const owner = frame.visitor.role === "owner"
  const value = (name: string, current: string) => view.sent?.[name] ?? current
  const disabled = owner ? "" : html` disabled`
  const finalAction = view.sent?.["final_action"] ?? settings.finalAction
  const portal = view.sent === undefined ? settings.portalCancellation : view.sent["portal_cancellation"] === "on"
  const fields = html`<fieldset><legend>Dunning: an unpaid renewal invoice</legend>
<label for="reminder-days">Reminder days (days after the invoice fell due, ascending, up to 10)</label><input id="reminder-days" name="reminder_days" value="${value("reminder_days", list(settings.reminderDays))}" maxlength="100" autocomplete="off" inputmode="numeric"${disabled}>
<label for="grace-days">Grace period in days (1 to ${MAX_BILLING_DAYS}; the subscription is past due meanwhile)</label><input id="grace-days" name="grace_days" type="number" min="1" max="${MAX_BILLING_DAYS}" value="${value("grace_days", String(settings.graceDays))}"${disabled}>
<fieldset><legend>When the grace period ends unpaid</legend>${
    DunningFinalAction.literals.map((action) =>
      html`<label class="check"><input type="radio" name="final_action" value="${action}"${finalAction === action ? html` checked` : ""}${disabled}>${FINAL_ACTION_LABELS[action]}</label>`)
  }</fieldset></fieldset>
<fieldset><legend>Saved payment methods</legend>
<label for="retry-hours">Retry a declined renewal charge after (hours, ascending, up to 10)</label><input id="retry-hours" name="retry_hours" value="${value("retry_hours", list(settings.retryHours))}" maxlength="100" autocomplete="off" inputmode="numeric"${disabled}>
</fieldset>
<fieldset><legend>Customer portal</legend><label class="check"><input type="checkbox" name="portal_cancellation"${portal ? html` checked` : ""}${disabled}>Customers may cancel at period end</label></fieldset>`
  const body = owner
    ? html`<form class="card" method="post" action="${frame.home}/billing-settings">${formTokenFields(frame)}${fields}<p class="muted">These apply in both environments. A dunning campaign already running keeps the terms it began with.</p><button type="submit" class="primary">Save billing settings</button></form>`
    : html`<section class="card">${fields}<p class="muted">Only an owner can change these.</p></section>`
  return framedPage(frame, "/subscriptions", "Billing settings",
    html`${noticeBox(view.notice)}${problemBox(view.problem)}<p><a href="${linkTo(frame, "/subscriptions")}">All subscriptions</a></p>${body}`)
}
