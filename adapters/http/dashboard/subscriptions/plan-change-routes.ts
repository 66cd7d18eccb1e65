import * as HttpRouter from "@effect/platform/HttpRouter"
import * as Effect from "effect/Effect"
import { fromIsoString } from "../../../../core/shared/instant.js"
import { pauseSubscription, resumeSubscription, updateSubscription } from "../../../../core/subscriptions/subscription-changes.js"
import { BillingCycle } from "../../../../core/subscriptions/subscription.js"
import { retrieveSubscription } from "../../../../core/subscriptions/subscription-queries.js"
import { describeError } from "../../response/error-table.js"
import { answerInstead, DashboardAnswer, htmlAnswer, seeOther } from "../dashboard-response.js"
import { linkTo, messagePage, type PageFrame } from "../layout.js"
import { CurrentFrame, scopeOf, SentForm } from "../page-frame.js"
import { HTML_PAGE, dashboardRoute, pathText } from "../page-declaration.js"
import { problemText } from "../page-problems.js"
import { moneyText } from "../page-text.js"
import { subscriptionDetailPage } from "./subscription-pages.js"

const idParam = Effect.map(HttpRouter.params, (params) => params["subscription_id"] ?? "")

const missing = (frame: PageFrame) =>
  new DashboardAnswer(htmlAnswer(404, messagePage(frame.home, "No such subscription", "There is no subscription with that id here.", {
    href: linkTo(frame, "/subscriptions"),
    label: "All subscriptions"
  })))

/** The detail page again, with the API's words for what was refused and its status. */
const refusedPage = (frame: PageFrame, id: string, status: number, problem: string) =>
  Effect.gen(function*() {
    const { invoices, subscription } = yield* retrieveSubscription(scopeOf(frame), id).pipe(
      Effect.catchTag("SubscriptionNotFound", () => Effect.fail(missing(frame)))
    )
    return htmlAnswer(status, subscriptionDetailPage({ frame, money: yield* moneyText, subscription, invoices, notice: undefined, problem }))
  })

/** A refusal (422, 409...) answers the detail page with the API's words and status. */
const refuse = (frame: PageFrame, id: string) => (error: Parameters<typeof problemText>[0]) =>
  answerInstead(refusedPage(frame, id, describeError(error).status, problemText(error)))

const backTo = (frame: PageFrame, id: string, done: string) => seeOther(linkTo(frame, `/subscriptions/${encodeURIComponent(id)}`, { done }))

/** A `datetime-local` value (no offset) is read as UTC, as the form says; an ISO value with an offset as given. */
const resumesAtOf = (text: string) => (text === "" ? null : fromIsoString(/[zZ]|[+-]\d\d:\d\d$/.test(text) ? text : `${text.length === 16 ? `${text}:00` : text}Z`))

const pause = Effect.gen(function*() {
  const form = yield* SentForm
  const frame = yield* CurrentFrame
  const id = yield* idParam
  const text = (form.get("resumes_at") ?? "").trim()
  const resumesAt = resumesAtOf(text)
  if (resumesAt === undefined) return yield* refusedPage(frame, id, 400, "The resume date must be a date and time, such as 2030-01-31T09:00.")
  return yield* pauseSubscription(scopeOf(frame), id, resumesAt).pipe(
    Effect.catchTag("SubscriptionNotFound", () => Effect.fail(missing(frame))),
    Effect.catchTags({ ValidationFailed: refuse(frame, id), SubscriptionTransitionRefused: refuse(frame, id) }),
    Effect.as(backTo(frame, id, "paused"))
  )
})

const resume = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const id = yield* idParam
  return yield* resumeSubscription(scopeOf(frame), id).pipe(
    Effect.catchTag("SubscriptionNotFound", () => Effect.fail(missing(frame))),
    Effect.catchTags({ SubscriptionTransitionRefused: refuse(frame, id) }),
    Effect.as(backTo(frame, id, "resumed"))
  )
})

const update = Effect.gen(function*() {
  const form = yield* SentForm
  const frame = yield* CurrentFrame
  const id = yield* idParam
  const amount = (form.get("payment_amount") ?? "").trim()
  const cycle = form.get("billing_cycle") ?? ""
  const proration = form.get("proration") ?? ""
  if (cycle !== "" && !(BillingCycle.literals as ReadonlyArray<string>).includes(cycle)) {
    return yield* refusedPage(frame, id, 400, "Choose a billing cycle from the list.")
  }
  if (proration !== "now" && proration !== "next_period" && proration !== "none") {
    return yield* refusedPage(frame, id, 400, "Choose when the change applies.")
  }
  return yield* updateSubscription(scopeOf(frame), id, {
    amount: amount === "" ? undefined : { kind: "string", value: amount },
    billingCycle: cycle === "" ? undefined : cycle as BillingCycle,
    proration
  }).pipe(
    Effect.catchTag("SubscriptionNotFound", () => Effect.fail(missing(frame))),
    Effect.catchTags({
      ValidationFailed: refuse(frame, id),
      SubscriptionTransitionRefused: refuse(frame, id),
      CurrencyNotEnabled: refuse(frame, id),
      ReceiverWalletUnavailable: refuse(frame, id)
    }),
    Effect.as(backTo(frame, id, "updated"))
  )
})

/** What the detail page says after each (subscription-routes.ts reads `done`). */
export const PLAN_CHANGE_NOTICES: Readonly<Record<string, string>> = {
  paused: "Subscription paused: no invoice is made until it resumes.",
  resumed: "Subscription resumed: billing continues at the next period boundary.",
  updated: "Plan changed."
}

const SUBSCRIPTION = pathText("subscription_id", "The subscription's id.")
const NO_SUBSCRIPTION = { status: 404, description: "No such subscription for this merchant in this environment.", contentType: HTML_PAGE }
const REFUSED = [
  { status: 400, description: "A field the form cannot read.", contentType: HTML_PAGE },
  NO_SUBSCRIPTION,
  { status: 409, description: "Refused by the subscription's state, in the API's words.", contentType: HTML_PAGE },
  { status: 422, description: "Refused values, in the API's words.", contentType: HTML_PAGE }
]

export const dashboardPlanChangePages = [
  dashboardRoute({
    method: "post", path: "/dashboard/subscriptions/{subscription_id}/pause", operationId: "dashboardPauseSubscription", form: "owner",
    audit: { operation: "pauseSubscription", fields: ["resumes_at"] },
    summary: "Pause a subscription (owners)",
    description: "Form field `resumes_at` (optional, UTC).",
    parameters: [SUBSCRIPTION],
    success: { status: 303, description: "Done: back to the subscription." },
    others: REFUSED,
    handler: pause
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/subscriptions/{subscription_id}/resume", operationId: "dashboardResumeSubscription", form: "owner",
    audit: { operation: "resumeSubscription", fields: [] },
    summary: "Resume a paused subscription (owners)",
    parameters: [SUBSCRIPTION],
    success: { status: 303, description: "Done: back to the subscription." },
    others: REFUSED,
    handler: resume
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/subscriptions/{subscription_id}/update", operationId: "dashboardUpdateSubscription", form: "owner",
    audit: { operation: "updateSubscription", fields: ["payment_amount", "billing_cycle", "proration"] },
    summary: "Change a subscription's amount or billing cycle (owners)",
    description: "Form fields `payment_amount`, `billing_cycle` (either or both) and `proration` (`now`, `next_period`, `none`).",
    parameters: [SUBSCRIPTION],
    success: { status: 303, description: "Done: back to the subscription." },
    others: REFUSED,
    handler: update
  })
] as const
