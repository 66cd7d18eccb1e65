import { randomUUID } from "node:crypto"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { now } from "../../../../core/shared/instant.js"
import { paymentDisputes } from "../../../../core/disputes/list-disputes.js"
import { exponentOfHeld } from "../../../../core/money/currency-catalog.js"
import { toCurrencyString } from "../../../../core/money/format.js"
import { parseAmount } from "../../../../core/money/parse.js"
import { listPayments } from "../../../../core/payments/list-payments.js"
import { paymentHistory } from "../../../../core/payments/payment-history.js"
import { verifyPayment } from "../../../../core/payments/verify-payment.js"
import { refundOncePerKey } from "../../../../core/refunds/refund-once.js"
import { refundableNow } from "../../../../core/refunds/refundable-now.js"
import { RefundExceedsBalance } from "../../../../core/refunds/refund.js"
import { redeliverEvent } from "../../../../core/webhooks/merchant-events.js"
import * as ListParameters from "../../contract/merchant-list-parameters.js"
import { answerInstead, DashboardAnswer, htmlAnswer, seeOther } from "../dashboard-response.js"
import { dashboardTarget } from "../dashboard-target.js"
import { dateRange } from "../date-filter.js"
import { linkTo, messagePage, type PageFrame } from "../layout.js"
import { CurrentFrame, requestQuery, scopeOf, SentForm } from "../page-frame.js"
import { problemText } from "../page-problems.js"
import { moneyText } from "../page-text.js"
import { paymentDetailPage, type PaymentFilters, paymentListPage, refundConfirmPage } from "./payment-pages.js"
import { dashboardRoute, HTML_PAGE, pathText } from "../page-declaration.js"

/**
 * The list's query as the API reads it: the same parameters and rules as GET /api/v1/payments, with
 * the form's empty fields left out and its dates (`from`, `to`, whole UTC days) as since and until.
 */
const paymentQuery = (query: URLSearchParams) => {
  const filters: PaymentFilters = {
    status: query.get("status") ?? "",
    from: query.get("from") ?? "",
    to: query.get("to") ?? "",
    reference: query.get("reference") ?? "",
    amount: query.get("amount") ?? "",
    currency: query.get("currency") ?? ""
  }
  const params = new URLSearchParams()
  for (const name of ["status", "reference", "amount", "currency", "cursor"] as const) {
    const value = query.get(name)
    if (value !== null && value !== "") params.set(name, value)
  }
  const { since, until, problems } = dateRange(filters.from, filters.to)
  // The API's own query, decoded by its declaration: the limit is its default, the dates are the form's.
  const { value, errors } = ListParameters.paymentListQuery.read(params)
  return { filters, request: value, errors, since, until, problems }
}

const list = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const money = yield* moneyText
  const query = yield* requestQuery
  const { filters, request, errors, since, until, problems } = paymentQuery(query)
  const refused = Object.values(errors).flat()
  const problem = [...refused, ...problems].join(" ")
  const view = { frame, money, filters, payments: [], next: undefined, first: undefined, problem: problem === "" ? undefined : problem }
  if (problem !== "") return htmlAnswer(400, paymentListPage(view))
  const page = yield* listPayments(scopeOf(frame), {
    ...request,
    ...(since !== undefined ? { since } : {}),
    ...(until !== undefined ? { until } : {})
  }).pipe(Effect.catchTag("ValidationFailed", (error) => Effect.fail(new DashboardAnswer(htmlAnswer(400, paymentListPage({ ...view, problem: problemText(error) }))))))
  const kept = { ...filters }
  return htmlAnswer(200, paymentListPage({
    ...view,
    payments: page.payments,
    next: page.nextCursor === null ? undefined : linkTo(frame, "/payments", { ...kept, cursor: page.nextCursor }),
    first: request.cursor === undefined ? undefined : linkTo(frame, "/payments", kept)
  }))
})

const trxParam = Effect.map(HttpRouter.params, (params) => params["trx_id"] ?? "")

/** Another merchant's payment, or another environment's, is simply not there: 404, never 403. */
const paymentMissing = (frame: PageFrame) =>
  new DashboardAnswer(htmlAnswer(404, messagePage(frame.home, "No such payment", "There is no payment with that transaction id here.", {
    href: linkTo(frame, "/payments"),
    label: "All payments"
  })))

const detailAnswer = (frame: PageFrame, trxId: string, status: number, messages: { readonly notice?: string; readonly problem?: string }) =>
  Effect.gen(function*() {
    const history = yield* paymentHistory(scopeOf(frame), trxId).pipe(Effect.catchTag("PaymentNotFound", () => Effect.fail(paymentMissing(frame))))
    const exponent = yield* exponentOfHeld(history.payment.currency)
    return htmlAnswer(status, paymentDetailPage({
      frame,
      money: yield* moneyText,
      history,
      disputes: yield* paymentDisputes(scopeOf(frame), trxId),
      at: yield* now,
      exponent,
      refundable: yield* refundableNow(history.payment),
      refundKey: randomUUID(),
      notice: messages.notice,
      problem: messages.problem
    }))
  })

const detail = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const query = yield* requestQuery
  const done = query.get("done")
  const notice = done === "refunded" ? "Refund made." : done === "redelivered" ? "The webhook is queued to be sent again." : undefined
  return yield* detailAnswer(frame, yield* trxParam, 200, notice === undefined ? {} : { notice })
})

/** The refund form's fields, read by the rules both steps share; a field that cannot be used is said on the payment's page. */
const refundForm = Effect.gen(function*() {
  const form = yield* SentForm
  const frame = yield* CurrentFrame
  const trxId = yield* trxParam
  const payment = yield* verifyPayment(scopeOf(frame), trxId).pipe(Effect.catchTag("PaymentNotFound", () => Effect.fail(paymentMissing(frame))))
  const key = form.get("idempotency_key") ?? ""
  const amount = (form.get("amount") ?? "").trim()
  const reason = (form.get("reason") ?? "").trim()
  const refuse = (status: number, problem: string) => answerInstead(detailAnswer(frame, trxId, status, { problem }))
  if (!/^[A-Za-z0-9-]{8,64}$/.test(key)) return yield* refuse(400, "The refund form was incomplete; fill it in again.")
  const exponent = yield* exponentOfHeld(payment.currency)
  const parsed = parseAmount({ kind: "string", value: amount }, exponent, { allowZero: false })
  if (Either.isLeft(parsed)) return yield* refuse(422, `The amount: ${parsed.left.message}`)
  return { frame, trxId, payment, key, amount, reason, exponent, minor: parsed.right, refuse }
})

/** The refund said back for confirmation; refused here, not after, when it is more than what remains. */
const reviewRefund = Effect.gen(function*() {
  const { frame, payment, key, reason, exponent, minor, refuse } = yield* refundForm
  // What the payment's disputes hold is not refundable: refused here, as the refund itself would.
  const left = yield* refundableNow(payment)
  if (minor > left) return yield* refuse(422, problemText(new RefundExceedsBalance({ amount: left, currency: payment.currency, exponent })))
  const amountText = (yield* moneyText)(minor, payment.currency)
  return htmlAnswer(200, refundConfirmPage({ frame, payment, amountText, amount: toCurrencyString(minor, exponent), reason, idempotencyKey: key }))
})

/**
 * The confirmed refund, made through the refund use case once per idempotency key. The key is the
 * form's own, kept with the refund's answer in one transaction, so a double click, a reload or a
 * second tab sending the same form refunds once.
 */
const makeRefund = Effect.gen(function*() {
  const { frame, trxId, key, amount, reason, refuse } = yield* refundForm
  const outcome = yield* refundOncePerKey(scopeOf(frame), { trxId, amount: { kind: "string", value: amount }, reason: reason === "" ? null : reason, refRefund: null }, key).pipe(
    Effect.catchIf((error) => error._tag !== "StorageError", (error) => refuse(422, problemText(error)))
  )
  switch (outcome._tag) {
    case "Mismatch":
      return yield* refuse(409, "That refund form was already sent with another amount or reason. Fill in the form again.")
    case "InFlight":
      return yield* refuse(409, "That refund is being made right now. Reload the page in a moment.")
    case "Done":
      return seeOther(linkTo(frame, `/payments/${encodeURIComponent(trxId)}`, { done: "refunded" }))
  }
})

/** Sends one of the merchant's webhook events again, from the page it was shown on. */
const redeliver = Effect.gen(function*() {
  const form = yield* SentForm
  const frame = yield* CurrentFrame
  const id = (yield* HttpRouter.params)["event_id"] ?? ""
  const back = returnPath(frame.home, form.get("return_to"))
  const answer = yield* redeliverEvent(scopeOf(frame), id)
  if (answer._tag === "NotFound") {
    return htmlAnswer(404, messagePage(frame.home, "No such webhook event", "There is no webhook event with that id here.", { href: linkTo(frame, back), label: "Back" }))
  }
  // A worker is sending it this moment: asking again would send it twice, so nothing was queued.
  if (answer._tag === "InFlight") {
    return htmlAnswer(409, messagePage(frame.home, "This webhook is being sent right now", "Nothing was queued. Wait a moment, then look at its attempts before sending it again.", {
      href: linkTo(frame, back),
      label: "Back"
    }))
  }
  return seeOther(linkTo(frame, back, { done: "redelivered" }))
})

/**
 * Where a form asks to return to, a path under the dashboard (`/payments/...`): resolved as the
 * browser will resolve it and kept inside the dashboard (dashboardTarget), else the overview.
 */
const returnPath = (home: string, asked: string | null): string => {
  const target = asked === null ? undefined : dashboardTarget(home, `${home}${asked}`)
  return target === undefined ? "" : target.path.slice(home.length)
}

const TRX = pathText("trx_id", "The payment's transaction id (trx_id).")
const NO_PAYMENT = { status: 404, description: "No such payment for this merchant in this environment.", contentType: HTML_PAGE }

export const dashboardPaymentPages = [
  dashboardRoute({
    method: "get", path: "/dashboard/payments", operationId: "dashboardPayments", view: "member",
    summary: "Payments, newest first, with filters and cursor paging",
    description: "`status`, `from` and `to` (UTC dates), `reference`, `amount`, `currency`, `cursor`: the rules of GET /api/v1/payments.",
    success: { status: 200, description: "The page.", contentType: HTML_PAGE },
    others: [{ status: 400, description: "A filter could not be read, said on the page.", contentType: HTML_PAGE }],
    handler: list
  }),
  dashboardRoute({
    method: "get", path: "/dashboard/payments/{trx_id}", operationId: "dashboardPayment", view: "member",
    summary: "A payment with its timeline, refund form and webhook deliveries",
    parameters: [TRX],
    success: { status: 200, description: "The page.", contentType: HTML_PAGE },
    others: [NO_PAYMENT],
    handler: detail
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/payments/{trx_id}/refund/review", operationId: "dashboardReviewRefund", form: "owner", audit: "reads only",
    summary: "Say a refund back for confirmation (owners); nothing is refunded",
    description: "Form fields `amount`, `reason`, `idempotency_key`, `csrf_token`, `environment`. An amount above what remains is refused here, before any confirm step.",
    parameters: [TRX],
    success: { status: 200, description: "The confirmation page, whose button sends the refund.", contentType: HTML_PAGE },
    others: [
      { status: 400, description: "The form was incomplete.", contentType: HTML_PAGE },
      NO_PAYMENT,
      { status: 422, description: "Refused, in the API's words.", contentType: HTML_PAGE }
    ],
    handler: reviewRefund
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/payments/{trx_id}/refund", operationId: "dashboardRefund", form: "owner",
    audit: { operation: "refundPayment", fields: ["amount", "reason"] },
    summary: "Refund a payment (owners), once per form key",
    description: "Form fields `amount`, `reason`, `idempotency_key`, `csrf_token`, `environment`, as the review said them back.",
    parameters: [TRX],
    success: { status: 303, description: "Refunded: back to the payment." },
    others: [
      { status: 400, description: "The form was incomplete.", contentType: HTML_PAGE },
      NO_PAYMENT,
      { status: 409, description: "The form's key was used for another refund, or the refund is being made.", contentType: HTML_PAGE },
      { status: 422, description: "Refused, in the API's words.", contentType: HTML_PAGE }
    ],
    handler: makeRefund
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/events/{event_id}/redeliver", operationId: "dashboardRedeliverEvent", form: "owner",
    audit: { operation: "redeliverEvent", fields: [] },
    summary: "Send a webhook event again (owners)",
    description: "Form field `return_to`: the dashboard page to come back to.",
    parameters: [pathText("event_id", "The event's id.")],
    success: { status: 303, description: "Queued: back to the page." },
    others: [{ status: 404, description: "No such event here.", contentType: HTML_PAGE }, { status: 409, description: "It is being sent right now.", contentType: HTML_PAGE }],
    handler: redeliver
  })
] as const
