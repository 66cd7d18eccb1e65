import * as Effect from "effect/Effect"
import { liveCredentials } from "../../../../core/merchants/live-credentials.js"
import { endCredentialOverlap, issueCredentials } from "../../../../core/merchants/merchant-admin.js"
import { recordDashboardAction } from "../dashboard-audit.js"
import { answerWith, htmlAnswer, seeOther } from "../dashboard-response.js"
import { developersPage, issuedPage, ROLL_OVERLAPS } from "./developer-pages.js"
import { linkTo } from "../layout.js"
import { pageFrame, postedForm, requestQuery, requireOwner, scopeOf } from "../page-frame.js"
import { dashboardPage, HTML_PAGE } from "../page-declaration.js"
import { JSON_STYLES, SIGNATURE_FORMATS, WEBHOOK_COMPATIBILITY_PATH } from "./webhook-compatibility-form.js"
import { updateMerchant } from "../../../../core/merchants/merchant-admin.js"

const show = answerWith(Effect.gen(function*() {
  const frame = yield* pageFrame
  const live = yield* liveCredentials(scopeOf(frame))
  const done = (yield* requestQuery).get("done")
  const notice = done === "overlap-ended"
    ? "The overlap is over: only the current credentials work."
    : done === "compatibility-saved" ? "Saved. The next webhook attempt, retries included, is spelled this way." : undefined
  return htmlAnswer(200, developersPage({ frame, live, notice }))
}))

/** A new set for the form's environment, revealed once in the answer; the old one per the overlap chosen. */
const roll = answerWith(Effect.gen(function*() {
  const { form, frame } = yield* postedForm
  yield* requireOwner(frame)
  const asked = Number(form.get("overlap_seconds") ?? "0")
  const overlap = ROLL_OVERLAPS.find((choice) => choice.seconds === asked)?.seconds ?? 0
  const issued = yield* issueCredentials(frame.visitor.merchant.id, frame.environment, { overlapSeconds: overlap })
  yield* recordDashboardAction(frame, { operation: "issueCredentials", route: "/dashboard/developers/roll", pathParams: {}, status: 200, fields: ["overlap_seconds"] })
  return htmlAnswer(200, issuedPage({ frame, ...issued }))
}))

const endOverlap = answerWith(Effect.gen(function*() {
  const { frame } = yield* postedForm
  yield* requireOwner(frame)
  yield* endCredentialOverlap(frame.visitor.merchant.id, frame.environment)
  yield* recordDashboardAction(frame, { operation: "endCredentialOverlap", route: "/dashboard/developers/end-overlap", pathParams: {}, status: 303, fields: [] })
  return seeOther(linkTo(frame, "/developers", { done: "overlap-ended" }))
}))

/** The merchant's IPN compatibility settings, as the admin API changes them; a value the form does not offer is refused. */
const saveCompatibility = answerWith(Effect.gen(function*() {
  const { form, frame } = yield* postedForm
  yield* requireOwner(frame)
  const format = SIGNATURE_FORMATS.find((option) => option.value === form.get("ipn_signature_format"))?.value
  const style = JSON_STYLES.find((option) => option.value === form.get("ipn_json_style"))?.value
  const audit = (status: number) =>
    recordDashboardAction(frame, { operation: "updateMerchant", route: `/dashboard${WEBHOOK_COMPATIBILITY_PATH}`, pathParams: {}, status, fields: ["ipn_json_style", "ipn_signature_format"] })
  if (format === undefined || style === undefined) {
    yield* audit(422)
    const live = yield* liveCredentials(scopeOf(frame))
    return htmlAnswer(422, developersPage({ frame, live, notice: undefined, problem: "Choose one of the offered X-Signature and body spellings." }))
  }
  yield* updateMerchant(frame.visitor.merchant.id, { ipnSignatureFormat: format, ipnJsonStyle: style })
  yield* audit(303)
  return seeOther(linkTo(frame, "/developers", { done: "compatibility-saved" }))
}))

export const dashboardDeveloperPages = [
  dashboardPage({
    method: "get", path: "/dashboard/developers", operationId: "dashboardDevelopers", signedIn: true,
    summary: "The merchant key, overlaps in progress, how requests and webhooks are signed",
    success: { status: 200, description: "The page; owners get the roll form.", contentType: HTML_PAGE },
    handler: show
  }),
  dashboardPage({
    method: "post", path: "/dashboard/developers/roll", operationId: "dashboardRollCredentials", signedIn: true,
    summary: "Roll the environment's credentials (owners)",
    description: "Form field `overlap_seconds` (0, 3600 or 86400). The answer shows the new set once and is never stored.",
    success: { status: 200, description: "The new credentials, shown this once.", contentType: HTML_PAGE },
    others: [{ status: 403, description: "No valid form token, or a viewer.", contentType: HTML_PAGE }],
    handler: roll
  }),
  dashboardPage({
    method: "post", path: "/dashboard/developers/end-overlap", operationId: "dashboardEndCredentialOverlap", signedIn: true,
    summary: "End an overlap now: replaced credentials stop working (owners)",
    success: { status: 303, description: "Done: back to the page." },
    others: [{ status: 403, description: "No valid form token, or a viewer.", contentType: HTML_PAGE }],
    handler: endOverlap
  }),
  dashboardPage({
    method: "post", path: `/dashboard${WEBHOOK_COMPATIBILITY_PATH}`, operationId: "dashboardSaveWebhookCompatibility", signedIn: true,
    summary: "Save how the merchant's webhooks are spelled for its receivers (owners)",
    description: "Form fields `ipn_signature_format` (hex or sha256=hex) and `ipn_json_style` (compact or php), as the admin API's merchant fields; both environments follow them.",
    success: { status: 303, description: "Saved: back to the page." },
    others: [{ status: 403, description: "No valid form token, or a viewer.", contentType: HTML_PAGE }, { status: 422, description: "A value the form does not offer.", contentType: HTML_PAGE }],
    handler: saveCompatibility
  })
] as const
