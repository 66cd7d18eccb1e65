import { describe, expect, it } from "vitest"
import { Amount } from "../../../../core/money/amount.js"
import { fromIsoString, type Instant } from "../../../../core/shared/instant.js"
import { defaultBillingSettings } from "../../../../core/subscriptions/billing-settings.js"
import { newDunning, stepTime } from "../../../../core/subscriptions/dunning-plan.js"
import type { Invoice, Subscription } from "../../../../core/subscriptions/subscription.js"
import { invoiceFor, subscriptionAt } from "../../../../core/subscriptions/testing/subscription-fixture.js"
import type { PageFrame } from "../layout.js"
import { planChangeSection } from "./plan-change-parts.js"

const at = (iso: string): Instant => fromIsoString(iso)!
const DUE = at("2029-04-10T08:00:00Z")
// A viewer's frame: the section without its forms, which need nothing more of it.
const frame = { home: "/dashboard", environment: "sandbox", environments: ["sandbox"], formToken: "", visitor: { role: "viewer" } } as unknown as PageFrame
const money = (amount: Amount, currency: string) => `${(Number(amount / 1_000_000n) / 100).toFixed(2)} ${currency}`

/** The section's words as read: inline elements joined to their sentence, blocks apart. */
const shown = (subscription: Subscription, invoices: ReadonlyArray<Invoice>) =>
  planChangeSection({ frame, money, subscription, invoices }).markup.replace(/<\/?(time|span)[^>]*>/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ")

const renewal = invoiceFor(DUE, at("2029-05-10T08:00:00Z"), { sequence: 2, number: "INV-2029-000002", amount: Amount(1_250_000_000n) })
const paidFirst = invoiceFor(at("2029-03-10T08:00:00Z"), DUE, { id: "inv-0", status: "paid" })

describe("the subscription page's schedule when no invoice is scheduled", () => {
  it("a past_due subscription awaits its open invoice and names its dunning's next step", () => {
    const started = newDunning(defaultBillingSettings, DUE)
    const pastDue = subscriptionAt(DUE, { status: "past_due", currentPeriodEnd: DUE, dunning: { ...started, step: 1, nextAt: stepTime(started, 1) } })
    const text = shown(pastDue, [renewal, paidFirst])
    expect(text).not.toContain("No invoice is scheduled")
    expect(text).toContain("Awaiting payment of invoice INV-2029-000002 (12.50 USD).")
    expect(text).toContain("Dunning is under way: next reminder due 2029-04-13 08:00 UTC.")
    expect(text).toContain("The next invoices are scheduled once it is paid.")
    const last = shown({ ...pastDue, dunning: { ...started, step: 3, nextAt: stepTime(started, 3) } }, [renewal])
    expect(last).toContain("final action due 2029-04-24 08:00 UTC")
    expect(shown({ ...pastDue, dunning: null }, [renewal])).toContain("No reminders are scheduled.")
  })

  it("a first invoice not yet paid is awaited; a paused, ending or cancelled subscription says so", () => {
    expect(shown(subscriptionAt(DUE), [renewal])).toContain("Awaiting payment of invoice INV-2029-000002 (12.50 USD). The next invoices are scheduled once it is paid.")
    expect(shown(subscriptionAt(DUE, { status: "active", pausedAt: DUE }), [])).toContain("No invoice is scheduled while paused.")
    expect(shown(subscriptionAt(DUE, { status: "active", cancelAtPeriodEnd: true, currentPeriodEnd: DUE }), [paidFirst]))
      .toContain("No invoice is scheduled: the subscription ends 2029-04-10 08:00 UTC.")
    expect(shown(subscriptionAt(DUE, { status: "cancelled" }), [renewal])).toContain("No invoice is scheduled.")
  })
})
