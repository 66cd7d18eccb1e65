import { randomUUID } from "node:crypto"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as Effect from "effect/Effect"
import { getPayout, listPayouts } from "../../../../core/payouts/list-payouts.js"
import { payoutOncePerKey } from "../../../../core/payouts/payout-once.js"
import { listPayoutDestinations } from "../../../../core/payouts/payout-destinations.js"
import * as Contract from "../../contract/payout-contracts.js"
import { answerInstead, DashboardAnswer, htmlAnswer, seeOther } from "../dashboard-response.js"
import { linkTo, messagePage, type PageFrame } from "../layout.js"
import { dashboardRoute, HTML_PAGE, pathText } from "../page-declaration.js"
import { CurrentFrame, requestQuery, scopeOf, SentForm } from "../page-frame.js"
import { fieldProblems, problemText } from "../page-problems.js"
import { moneyText } from "../page-text.js"
import { payableBalances } from "./payable-balances.js"
import { payoutDetailPage, payoutListPage, type PayoutFormState } from "./payout-pages.js"

/** The Payouts page for this request's cursor; a refused payout form comes back here with what it was told. */
const listAnswer = (frame: PageFrame, status: number, sent: PayoutFormState | undefined) =>
  Effect.gen(function*() {
    const query = yield* requestQuery
    const params = new URLSearchParams()
    const cursor = query.get("cursor")
    if (cursor !== null && cursor !== "") params.set("cursor", cursor)
    // The API's own query, decoded by its declaration: the limit is its default.
    const { value: request, errors } = Contract.payoutListQuery.read(params)
    const scope = scopeOf(frame)
    const base = {
      frame,
      money: yield* moneyText,
      balances: yield* payableBalances(scope),
      destinations: yield* listPayoutDestinations(scope),
      formKey: randomUUID(),
      sent,
      notice: query.get("done") === "requested" ? "Payout requested." : undefined
    }
    const refused = Object.values(errors).flat()
    if (refused.length > 0) {
      return htmlAnswer(400, payoutListPage({ ...base, payouts: [], next: undefined, first: linkTo(frame, "/payouts"), problem: refused.join(" ") }))
    }
    const page = yield* listPayouts(scope, request)
    return htmlAnswer(status, payoutListPage({
      ...base,
      payouts: page.payouts,
      next: page.nextCursor === null ? undefined : linkTo(frame, "/payouts", { cursor: page.nextCursor }),
      first: request.cursor === undefined ? undefined : linkTo(frame, "/payouts"),
      problem: undefined
    }))
  })

const list = Effect.flatMap(CurrentFrame, (frame) => listAnswer(frame, 200, undefined))

/** Another merchant's payout, or another environment's, is simply not there: 404, never 403. */
const payoutMissing = (frame: PageFrame) =>
  new DashboardAnswer(htmlAnswer(404, messagePage(frame.home, "No such payout", "There is no payout with that id here.", {
    href: linkTo(frame, "/payouts"),
    label: "All payouts"
  })))

const detail = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const id = (yield* HttpRouter.params)["payout_id"] ?? ""
  const scope = scopeOf(frame)
  const payout = yield* getPayout(scope, id).pipe(Effect.catchTag("PayoutNotFound", () => Effect.fail(payoutMissing(frame))))
  const destination = (yield* listPayoutDestinations(scope)).find((each) => each.id === payout.destinationId)
  const notice = (yield* requestQuery).get("done") === "requested"
    ? "Payout requested: the amount left your balance and waits for the platform's approval."
    : undefined
  return htmlAnswer(200, payoutDetailPage({ frame, money: yield* moneyText, payout, destination, notice }))
})

/**
 * A payout asked for from the page, once per form key: a double click, a reload or a second tab
 * sending the same form moves the money once. A refusal is said under the field it concerns.
 */
const requestPayout = Effect.gen(function*() {
  const form = yield* SentForm
  const frame = yield* CurrentFrame
  const key = form.get("idempotency_key") ?? ""
  const sent = { currency: form.get("currency") ?? "", amount: (form.get("amount") ?? "").trim(), destinationId: form.get("destination_id") ?? "" }
  const refuse = (status: number, problems: Readonly<Record<string, ReadonlyArray<string>>>) =>
    answerInstead(listAnswer(frame, status, { ...sent, problems }))
  if (!/^[A-Za-z0-9-]{8,64}$/.test(key)) return yield* refuse(400, { amount: ["The payout form was incomplete; fill it in again."] })
  const outcome = yield* payoutOncePerKey(scopeOf(frame), { amount: { kind: "string", value: sent.amount }, currency: sent.currency, destinationId: sent.destinationId }, key)
    .pipe(Effect.catchTags({
      ValidationFailed: (error) => refuse(422, fieldProblems(error)),
      PayoutExceedsBalance: (error) => refuse(422, { amount: [problemText(error)] })
    }))
  switch (outcome._tag) {
    case "Mismatch":
      return yield* refuse(409, { amount: ["That payout form was already sent with another amount or bank account. Fill in the form again."] })
    case "InFlight":
      return yield* refuse(409, { amount: ["That payout is being requested right now. Reload the page in a moment."] })
    case "Done":
      return seeOther(linkTo(frame, `/payouts/${encodeURIComponent(outcome.id)}`, { done: "requested" }))
  }
})

export const dashboardPayoutPages = [
  dashboardRoute({
    method: "get", path: "/dashboard/payouts", operationId: "dashboardPayouts", view: "member",
    summary: "What each balance can pay out, the payout form (owners) and the payouts, newest first, with cursor paging",
    description: "`cursor`: the rules of GET /api/v1/payouts.",
    success: { status: 200, description: "The page.", contentType: HTML_PAGE },
    others: [{ status: 400, description: "The cursor could not be read, said on the page.", contentType: HTML_PAGE }],
    handler: list
  }),
  dashboardRoute({
    method: "get", path: "/dashboard/payouts/{payout_id}", operationId: "dashboardPayout", view: "member",
    summary: "A payout: its status, what its record tells of its history, and its bank account",
    parameters: [pathText("payout_id", "The payout's id.")],
    success: { status: 200, description: "The page.", contentType: HTML_PAGE },
    others: [{ status: 404, description: "No such payout here.", contentType: HTML_PAGE }],
    handler: detail
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/payouts/request", operationId: "dashboardRequestPayout", form: "owner",
    audit: { operation: "createPayout", fields: ["amount", "currency", "destination_id"] },
    summary: "Request a payout (owners), once per form key",
    description: "Form fields `amount`, `currency`, `destination_id`, `idempotency_key`: the rules of POST /api/v1/payouts.",
    success: { status: 303, description: "Requested: to the payout's page." },
    others: [
      { status: 400, description: "The form was incomplete.", contentType: HTML_PAGE },
      { status: 409, description: "The form's key was used for another payout, or the payout is being requested.", contentType: HTML_PAGE },
      { status: 422, description: "Refused, in the API's words, under the field concerned.", contentType: HTML_PAGE }
    ],
    handler: requestPayout
  })
] as const
