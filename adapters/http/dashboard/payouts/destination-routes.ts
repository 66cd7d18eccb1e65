import * as HttpRouter from "@effect/platform/HttpRouter"
import * as Effect from "effect/Effect"
import { checkoutSettings } from "../../../../core/merchants/checkout-settings.js"
import { createPayoutDestination, deletePayoutDestination, listPayoutDestinations } from "../../../../core/payouts/payout-destinations.js"
import * as Contract from "../../contract/payout-destination-contracts.js"
import { readBody } from "../../contract/read-body.js"
import { answerInstead, DashboardAnswer, htmlAnswer, seeOther } from "../dashboard-response.js"
import { linkTo, messagePage, type PageFrame } from "../layout.js"
import { dashboardRoute, HTML_PAGE, pathText } from "../page-declaration.js"
import { CurrentFrame, requestQuery, scopeOf, SentForm } from "../page-frame.js"
import { fieldProblems, problemText } from "../page-problems.js"
import { type BankAccountFormState, deleteConfirmPage, destinationListPage } from "./destination-pages.js"

const NOTICES: Readonly<Record<string, string>> = {
  added: "Bank account added: payouts in its currency can go to it now.",
  deleted: "Bank account deleted: no new payout can go to it."
}

/** The Bank accounts page; a refused add form comes back here with what each field was told. */
const listAnswer = (frame: PageFrame, status: number, sent: BankAccountFormState | undefined, problem?: string) =>
  Effect.gen(function*() {
    const scope = scopeOf(frame)
    const settings = yield* checkoutSettings(scope)
    return htmlAnswer(status, destinationListPage({
      frame,
      destinations: yield* listPayoutDestinations(scope),
      currencies: settings.currencies.filter((currency) => currency.enabled).map((currency) => currency.code),
      sent,
      notice: NOTICES[(yield* requestQuery).get("done") ?? ""],
      problem
    }))
  })

const list = Effect.flatMap(CurrentFrame, (frame) => listAnswer(frame, 200, undefined))

/**
 * A bank account added from the page, its fields read by the API's own body contract (the one IBAN
 * and BIC rule, bank-account-fields.ts), then by the use case; every refusal is said under its field.
 */
const add = Effect.gen(function*() {
  const form = yield* SentForm
  const frame = yield* CurrentFrame
  const field = (name: string) => (form.get(name) ?? "").trim()
  const sent = { account_holder: field("account_holder"), iban: field("iban"), bic: field("bic"), currency: field("currency") }
  const refuse = (problems: BankAccountFormState["problems"]) => answerInstead(listAnswer(frame, 422, { ...sent, problems }))
  const body = yield* Contract.requireFieldsOfType(readBody(Contract.createPayoutDestinationBody, { type: "bank_account", ...sent })).done((valid) => valid).pipe(
    Effect.catchTag("ValidationFailed", (error) => refuse(fieldProblems(error)))
  )
  yield* createPayoutDestination(scopeOf(frame), { accountHolder: body.account_holder ?? "", iban: body.iban ?? "", bic: body.bic ?? null, currency: body.currency }).pipe(
    Effect.catchTags({
      ValidationFailed: (error) => refuse(fieldProblems(error)),
      PayoutDestinationLimitReached: (error) => answerInstead(listAnswer(frame, 422, { ...sent, problems: {} }, problemText(error)))
    })
  )
  return seeOther(linkTo(frame, "/payout-destinations", { done: "added" }))
})

/** Another merchant's bank account, or another environment's, is simply not there: 404, never 403. */
const destinationMissing = (frame: PageFrame) =>
  new DashboardAnswer(htmlAnswer(404, messagePage(frame.home, "No such bank account", "There is no bank account with that id here.", {
    href: linkTo(frame, "/payout-destinations"),
    label: "All bank accounts"
  })))

const destinationParam = Effect.map(HttpRouter.params, (params) => params["destination_id"] ?? "")

/** The bank account named back before it is deleted; nothing changes. */
const reviewDelete = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const id = yield* destinationParam
  const destination = (yield* listPayoutDestinations(scopeOf(frame))).find((each) => each.id === id)
  if (destination === undefined) return yield* Effect.fail(destinationMissing(frame))
  return htmlAnswer(200, deleteConfirmPage(frame, destination))
})

const remove = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const deleted = yield* deletePayoutDestination(scopeOf(frame), yield* destinationParam)
  if (!deleted) return yield* Effect.fail(destinationMissing(frame))
  return seeOther(linkTo(frame, "/payout-destinations", { done: "deleted" }))
})

const DESTINATION = pathText("destination_id", "The bank account's id.")
const NO_DESTINATION = { status: 404, description: "No such bank account for this merchant in this environment.", contentType: HTML_PAGE }

export const dashboardPayoutDestinationPages = [
  dashboardRoute({
    method: "get", path: "/dashboard/payout-destinations", operationId: "dashboardPayoutDestinations", view: "member",
    summary: "The bank accounts payouts may go to (IBANs masked), and the form adding one (owners)",
    success: { status: 200, description: "The page.", contentType: HTML_PAGE },
    handler: list
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/payout-destinations/add", operationId: "dashboardAddPayoutDestination", form: "owner",
    audit: { operation: "createPayoutDestination", fields: ["account_holder", "iban", "bic", "currency"] },
    summary: "Add a bank account payouts may go to (owners)",
    description: "Form fields `account_holder`, `iban`, `bic` (optional), `currency`: the rules of POST /api/v1/payout-destinations.",
    success: { status: 303, description: "Added: back to the bank accounts." },
    others: [{ status: 422, description: "Refused, in the API's words, under the field concerned.", contentType: HTML_PAGE }],
    handler: add
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/payout-destinations/{destination_id}/delete/review", operationId: "dashboardReviewPayoutDestinationDelete",
    form: "owner", audit: "reads only",
    summary: "Name a bank account back before deleting it (owners); nothing is deleted",
    parameters: [DESTINATION],
    success: { status: 200, description: "The confirmation page, whose button deletes it.", contentType: HTML_PAGE },
    others: [NO_DESTINATION],
    handler: reviewDelete
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/payout-destinations/{destination_id}/delete", operationId: "dashboardDeletePayoutDestination", form: "owner",
    audit: { operation: "deletePayoutDestination", fields: [] },
    summary: "Delete a bank account (owners): no new payout goes to it",
    parameters: [DESTINATION],
    success: { status: 303, description: "Deleted: back to the bank accounts." },
    others: [NO_DESTINATION],
    handler: remove
  })
] as const
