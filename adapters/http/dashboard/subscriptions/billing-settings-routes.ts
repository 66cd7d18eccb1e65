import * as Effect from "effect/Effect"
import { callerBillingSettings, replaceCallerBillingSettings } from "../../../../core/subscriptions/billing-settings-admin.js"
import { DunningFinalAction } from "../../../../core/subscriptions/billing-settings.js"
import { htmlAnswer, seeOther } from "../dashboard-response.js"
import { linkTo, type PageFrame } from "../layout.js"
import { CurrentFrame, requestQuery, scopeOf, SentForm } from "../page-frame.js"
import { problemText } from "../page-problems.js"
import { dashboardRoute, HTML_PAGE } from "../page-declaration.js"
import { billingSettingsPage } from "./billing-settings-page.js"

const page = (frame: PageFrame, status: number, messages: { readonly notice?: string; readonly problem?: string; readonly sent?: Readonly<Record<string, string>> }) =>
  Effect.map(callerBillingSettings(scopeOf(frame)), (settings) => htmlAnswer(status, billingSettingsPage({ frame, settings, ...messages })))

const show = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const saved = (yield* requestQuery).get("done") === "saved"
  return yield* page(frame, 200, saved ? { notice: "Saved. Dunning campaigns that begin from now on follow these settings." } : {})
})

/** A list as typed: numbers separated by commas or spaces; undefined when something is not a whole number. */
const numbers = (text: string): ReadonlyArray<number> | undefined => {
  const parts = text.split(/[\s,]+/).filter((part) => part !== "")
  return parts.every((part) => /^\d{1,6}$/.test(part)) ? parts.map(Number) : undefined
}

/** The form as the API's PUT body: the same rules (billing-settings-admin.ts) judge it, in the same words. */
const save = Effect.gen(function*() {
  const form = yield* SentForm
  const frame = yield* CurrentFrame
  const sent = {
    reminder_days: form.get("reminder_days") ?? "",
    grace_days: form.get("grace_days") ?? "",
    final_action: form.get("final_action") ?? "",
    retry_hours: form.get("retry_hours") ?? "",
    portal_cancellation: form.get("portal_cancellation") === null ? "off" : "on"
  }
  const reminderDays = numbers(sent.reminder_days)
  const retryHours = numbers(sent.retry_hours)
  const graceDays = /^\d{1,6}$/.test(sent.grace_days.trim()) ? Number(sent.grace_days.trim()) : undefined
  const finalAction = DunningFinalAction.literals.find((action) => action === sent.final_action)
  const shapeProblems = [
    reminderDays === undefined ? "Reminder days must be whole numbers separated by commas." : "",
    retryHours === undefined ? "Retry hours must be whole numbers separated by commas." : "",
    graceDays === undefined ? "The grace period must be a whole number of days." : "",
    finalAction === undefined ? "Choose what happens when the grace period ends." : ""
  ].filter((problem) => problem !== "")
  if (shapeProblems.length > 0) return yield* page(frame, 422, { problem: shapeProblems.join(" "), sent })
  const outcome = yield* replaceCallerBillingSettings(scopeOf(frame), {
    reminderDays: reminderDays!, retryHours: retryHours!, graceDays: graceDays!, finalAction: finalAction!,
    portalCancellation: sent.portal_cancellation === "on"
  }).pipe(
    Effect.as(undefined),
    Effect.catchTag("ValidationFailed", (error) => Effect.succeed(problemText(error)))
  )
  if (outcome !== undefined) return yield* page(frame, 422, { problem: outcome, sent })
  return seeOther(linkTo(frame, "/billing-settings", { done: "saved" }))
})

export const dashboardBillingSettingsPages = [
  dashboardRoute({
    method: "get", path: "/dashboard/billing-settings", operationId: "dashboardBillingSettings", view: "member",
    summary: "Billing settings: dunning reminders, grace and final action, charge retries, portal cancellation",
    success: { status: 200, description: "The page; owners get the form.", contentType: HTML_PAGE },
    handler: show
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/billing-settings", operationId: "dashboardSaveBillingSettings", form: "owner",
    audit: { operation: "replaceBillingSettings", fields: ["reminder_days", "grace_days", "final_action", "retry_hours", "portal_cancellation"] },
    summary: "Save the billing settings (owners)",
    description: "Form fields as PUT /api/v1/billing-settings, lists as numbers separated by commas.",
    success: { status: 303, description: "Saved: back to the page." },
    others: [{ status: 422, description: "Refused, in the API's words.", contentType: HTML_PAGE }],
    handler: save
  })
] as const
