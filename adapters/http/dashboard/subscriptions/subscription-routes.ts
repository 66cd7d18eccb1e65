import * as HttpRouter from "@effect/platform/HttpRouter"
import * as Effect from "effect/Effect"
import { DEFAULT_PER_PAGE, lastPage } from "../../../../core/shared/page.js"
import { cancelSubscription } from "../../../../core/subscriptions/change-subscription.js"
import { listSubscriptions, retrieveSubscription } from "../../../../core/subscriptions/subscription-queries.js"
import { pageParameter } from "../../contract/parameters.js"
import { queryOf } from "../../contract/query-contract.js"
import { answerInstead, DashboardAnswer, htmlAnswer, seeOther } from "../dashboard-response.js"
import { linkTo, messagePage, type PageFrame } from "../layout.js"
import { CurrentFrame, requestQuery, scopeOf, SentForm } from "../page-frame.js"
import { problemText } from "../page-problems.js"
import { moneyText } from "../page-text.js"
import { PLAN_CHANGE_NOTICES } from "./plan-change-routes.js"
import { subscriptionDetailPage, subscriptionListPage } from "./subscription-pages.js"
import { describeError } from "../../response/error-table.js"
import { dashboardRoute, HTML_PAGE, pathText } from "../page-declaration.js"

/** The dashboard's list reads the page only: it shows the API's default number a page. */
const dashboardListQuery = queryOf({ page: pageParameter })

/** The API's list, page-numbered as GET /api/v1/subscriptions is, with its `page` parameter read by the same rule. */
const list = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const money = yield* moneyText
  const { value: { page }, errors } = dashboardListQuery.read(yield* requestQuery)
  const refused = Object.values(errors).flat().join(" ")
  if (refused !== "") return htmlAnswer(400, subscriptionListPage({ frame, money, items: [], page: 1, lastPage: 1, problem: refused }))
  const found = yield* listSubscriptions(scopeOf(frame), { page, perPage: DEFAULT_PER_PAGE })
  return htmlAnswer(200, subscriptionListPage({ frame, money, items: found.items, page, lastPage: lastPage(found), problem: undefined }))
})

const idParam = Effect.map(HttpRouter.params, (params) => params["subscription_id"] ?? "")

/** Another merchant's subscription, or another environment's, is simply not there: 404, never 403. */
const subscriptionMissing = (frame: PageFrame) =>
  new DashboardAnswer(htmlAnswer(404, messagePage(frame.home, "No such subscription", "There is no subscription with that id here.", {
    href: linkTo(frame, "/subscriptions"),
    label: "All subscriptions"
  })))

const detailAnswer = (frame: PageFrame, id: string, status: number, messages: { readonly notice?: string; readonly problem?: string }) =>
  Effect.gen(function*() {
    const { subscription, invoices } = yield* retrieveSubscription(scopeOf(frame), id).pipe(
      Effect.catchTag("SubscriptionNotFound", () => Effect.fail(subscriptionMissing(frame)))
    )
    return htmlAnswer(status, subscriptionDetailPage({ frame, money: yield* moneyText, subscription, invoices, notice: messages.notice, problem: messages.problem }))
  })

const NOTICES: Readonly<Record<string, string>> = {
  cancelled: "Subscription cancelled.",
  ends_at_period_end: "The subscription will end when its paid period does.",
  ...PLAN_CHANGE_NOTICES
}

const detail = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const notice = NOTICES[(yield* requestQuery).get("done") ?? ""]
  return yield* detailAnswer(frame, yield* idParam, 200, notice === undefined ? {} : { notice })
})

/**
 * The API's cancel (spec 4.8), `when` standing for at_period_end. A refusal (already cancelled) is
 * the detail page with the API's words and its status; made or refused, it is audited.
 */
const cancel = Effect.gen(function*() {
  const form = yield* SentForm
  const frame = yield* CurrentFrame
  const id = yield* idParam
  const when = form.get("when")
  if (when !== "now" && when !== "period_end") return yield* detailAnswer(frame, id, 400, { problem: "Choose when the subscription ends: at period end or now." })
  const done = yield* cancelSubscription(scopeOf(frame), id, when === "period_end").pipe(
    Effect.catchTag("SubscriptionNotFound", () => Effect.fail(subscriptionMissing(frame))),
    Effect.catchTag("SubscriptionTransitionRefused", (error) => {
      const status = describeError(error).status
      return answerInstead(detailAnswer(frame, id, status, { problem: problemText(error) }))
    })
  )
  // At period end on a subscription with no paid period running cancels it now (docs/decisions.md): say what happened.
  const outcome = done.subscription.status === "cancelled" ? "cancelled" : "ends_at_period_end"
  return seeOther(linkTo(frame, `/subscriptions/${encodeURIComponent(id)}`, { done: outcome }))
})

const SUBSCRIPTION = pathText("subscription_id", "The subscription's id.")
const NO_SUBSCRIPTION = { status: 404, description: "No such subscription for this merchant in this environment.", contentType: HTML_PAGE }

export const dashboardSubscriptionPages = [
  dashboardRoute({
    method: "get", path: "/dashboard/subscriptions", operationId: "dashboardSubscriptions", view: "member",
    summary: "Subscriptions, paged by number (`page`)",
    success: { status: 200, description: "The page.", contentType: HTML_PAGE },
    others: [{ status: 400, description: "No such page number.", contentType: HTML_PAGE }],
    handler: list
  }),
  dashboardRoute({
    method: "get", path: "/dashboard/subscriptions/{subscription_id}", operationId: "dashboardSubscription", view: "member",
    summary: "A subscription with its invoices",
    parameters: [SUBSCRIPTION],
    success: { status: 200, description: "The page; owners get the cancel form.", contentType: HTML_PAGE },
    others: [NO_SUBSCRIPTION],
    handler: detail
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/subscriptions/{subscription_id}/cancel", operationId: "dashboardCancelSubscription", form: "owner",
    audit: { operation: "cancelSubscription", fields: ["when"] },
    summary: "Cancel now or at the period's end (owners)",
    description: "Form field `when`: `now` or `period_end`.",
    parameters: [SUBSCRIPTION],
    success: { status: 303, description: "Done: back to the subscription." },
    others: [
      { status: 400, description: "No choice made.", contentType: HTML_PAGE },
      NO_SUBSCRIPTION,
      { status: 409, description: "Refused (already cancelled...), in the API's words.", contentType: HTML_PAGE }
    ],
    handler: cancel
  })
] as const
