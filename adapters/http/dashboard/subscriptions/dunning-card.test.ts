import { describe, expect, it } from "vitest"
import { fromIsoString, type Instant } from "../../../../core/shared/instant.js"
import { defaultBillingSettings } from "../../../../core/subscriptions/billing-settings.js"
import { newDunning, stepTime } from "../../../../core/subscriptions/dunning-plan.js"
import type { Subscription } from "../../../../core/subscriptions/subscription.js"
import { Html } from "../../pages/html.js"
import { dunningCard } from "./dunning-card.js"
import { subscriptionAt } from "../../../../core/subscriptions/testing/subscription-fixture.js"

const at = (iso: string): Instant => fromIsoString(iso)!
const DUE = at("2029-04-10T08:00:00Z")

const subscription = (fields: Partial<Subscription>): Subscription =>
  subscriptionAt(DUE, { status: "past_due", currentPeriodEnd: DUE, ...fields })

const text = (card: Html | string) => (card instanceof Html ? card.markup : card).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ")

describe("the subscription page's dunning card", () => {
  it("shows when the campaign began, the steps done, and the next step with its time", () => {
    const started = newDunning(defaultBillingSettings, DUE)
    const dunning = { ...started, step: 2, nextAt: stepTime(started, 2) }
    const shown = text(dunningCard(subscription({ dunning })))
    expect(shown).toContain("Started 2029-04-10 08:00 UTC")
    expect(shown).toContain("Reminders sent 2 of 3 (day 1, day 3)")
    expect(shown).toContain("Next step Reminder 3 of 3 (day 7)")
    expect(shown).toContain("Next step at 2029-04-17 08:00 UTC")
    expect(shown).toContain("Grace ends 2029-04-24 08:00 UTC then cancel the subscription")
  })

  it("after the last reminder, the final action is next", () => {
    const started = newDunning({ ...defaultBillingSettings, finalAction: "stay_past_due" }, DUE)
    const shown = text(dunningCard(subscription({ dunning: { ...started, step: 3, nextAt: stepTime(started, 3) } })))
    expect(shown).toContain("Next step Final action: leave it past due and stop reminding")
    expect(shown).toContain("Next step at 2029-04-24 08:00 UTC")
  })

  it("says when a past_due subscription has no campaign, and shows nothing otherwise", () => {
    expect(text(dunningCard(subscription({})))).toContain("No reminders are scheduled")
    expect(dunningCard(subscription({ status: "active" }))).toBe("")
  })
})
