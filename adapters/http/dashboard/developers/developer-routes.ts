import * as Effect from "effect/Effect"
import { liveCredentials } from "../../../../core/merchants/live-credentials.js"
import { endCredentialOverlap, issueCredentials } from "../../../../core/merchants/merchant-admin.js"
import { htmlAnswer, seeOther } from "../dashboard-response.js"
import { developersPage, issuedPage, ROLL_OVERLAPS } from "./developer-pages.js"
import { linkTo } from "../layout.js"
import { CurrentFrame, requestQuery, scopeOf, SentForm } from "../page-frame.js"
import { dashboardRoute, HTML_PAGE } from "../page-declaration.js"
import { JSON_STYLES, SIGNATURE_FORMATS, WEBHOOK_COMPATIBILITY_PATH } from "./webhook-compatibility-form.js"
import { updateMerchant } from "../../../../core/merchants/merchant-admin.js"

const show = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const live = yield* liveCredentials(scopeOf(frame))
  const done = (yield* requestQuery).get("done")
  const notice = done === "overlap-ended"
    ? "The overlap is over: only the current credentials work."
    : done === "compatibility-saved" ? "Saved. The next webhook attempt, retries included, is spelled this way." : undefined
  return htmlAnswer(200, developersPage({ frame, live, notice }))
})

/** A new set for the form's environment, revealed once in the answer; the old one per the overlap chosen. */
const roll = Effect.gen(function*() {
  const form = yield* SentForm
  const frame = yield* CurrentFrame
  const asked = Number(form.get("overlap_seconds") ?? "0")
  const overlap = ROLL_OVERLAPS.find((choice) => choice.seconds === asked)?.seconds ?? 0
  const issued = yield* issueCredentials(frame.visitor.merchant.id, frame.environment, { overlapSeconds: overlap })
  return htmlAnswer(200, issuedPage({ frame, ...issued }))
})

const endOverlap = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  yield* endCredentialOverlap(frame.visitor.merchant.id, frame.environment)
  return seeOther(linkTo(frame, "/developers", { done: "overlap-ended" }))
})

/** The merchant's IPN compatibility settings, as the admin API changes them; a value the form does not offer is refused. */
const saveCompatibility = Effect.gen(function*() {
  const form = yield* SentForm
  const frame = yield* CurrentFrame
  const format = SIGNATURE_FORMATS.find((option) => option.value === form.get("ipn_signature_format"))?.value
  const style = JSON_STYLES.find((option) => option.value === form.get("ipn_json_style"))?.value
  if (format === undefined || style === undefined) {
    const live = yield* liveCredentials(scopeOf(frame))
    return htmlAnswer(422, developersPage({ frame, live, notice: undefined, problem: "Choose one of the offered X-Signature and body spellings." }))
  }
  yield* updateMerchant(frame.visitor.merchant.id, { ipnSignatureFormat: format, ipnJsonStyle: style })
  return seeOther(linkTo(frame, "/developers", { done: "compatibility-saved" }))
})

export const dashboardDeveloperPages = [
  dashboardRoute({
    method: "get", path: "/dashboard/developers", operationId: "dashboardDevelopers", view: "member",
    summary: "The merchant key, overlaps in progress, how requests and webhooks are signed",
    success: { status: 200, description: "The page; owners get the roll form.", contentType: HTML_PAGE },
    handler: show
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/developers/roll", operationId: "dashboardRollCredentials", form: "owner",
    audit: { operation: "issueCredentials", fields: ["overlap_seconds"] },
    summary: "Roll the environment's credentials (owners)",
    description: "Form field `overlap_seconds` (0, 3600 or 86400). The answer shows the new set once and is never stored.",
    success: { status: 200, description: "The new credentials, shown this once.", contentType: HTML_PAGE },
    handler: roll
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/developers/end-overlap", operationId: "dashboardEndCredentialOverlap", form: "owner",
    audit: { operation: "endCredentialOverlap", fields: [] },
    summary: "End an overlap now: replaced credentials stop working (owners)",
    success: { status: 303, description: "Done: back to the page." },
    handler: endOverlap
  }),
  dashboardRoute({
    method: "post", path: `/dashboard${WEBHOOK_COMPATIBILITY_PATH}`, operationId: "dashboardSaveWebhookCompatibility", form: "owner",
    audit: { operation: "updateMerchant", fields: ["ipn_json_style", "ipn_signature_format"] },
    summary: "Save how the merchant's webhooks are spelled for its receivers (owners)",
    description: "Form fields `ipn_signature_format` (hex or sha256=hex) and `ipn_json_style` (compact or php), as the admin API's merchant fields; both environments follow them.",
    success: { status: 303, description: "Saved: back to the page." },
    others: [{ status: 422, description: "A value the form does not offer.", contentType: HTML_PAGE }],
    handler: saveCompatibility
  })
] as const
