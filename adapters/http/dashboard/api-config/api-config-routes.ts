import * as Effect from "effect/Effect"
import { checkoutFrameAncestors, replaceCheckoutFrameAncestors } from "../../../../core/merchants/checkout-frames.js"
import { checkoutSettings, chooseCheckoutSettings } from "../../../../core/merchants/checkout-settings.js"
import { apiConfigPage } from "./api-config-page.js"
import { htmlAnswer, seeOther } from "../dashboard-response.js"
import { linkTo, type PageFrame } from "../layout.js"
import { CurrentFrame, requestQuery, scopeOf, SentForm } from "../page-frame.js"
import { problemText } from "../page-problems.js"
import { dashboardRoute, HTML_PAGE } from "../page-declaration.js"
import { WHOLE_ID } from "../../request/path-params.js"

const page = (frame: PageFrame, status: number, messages: { readonly notice?: string; readonly problem?: string; readonly framesSent?: string }) =>
  Effect.gen(function*() {
    const settings = yield* checkoutSettings(scopeOf(frame))
    const frameAncestors = yield* checkoutFrameAncestors(frame.visitor.merchant.id)
    return htmlAnswer(status, apiConfigPage({
      frame, settings, frameAncestors, frameAncestorsSent: messages.framesSent, notice: messages.notice, problem: messages.problem
    }))
  })

const show = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const done = (yield* requestQuery).get("done")
  return yield* page(frame, 200, done === "saved"
    ? { notice: "Saved. The next checkout page offers exactly this." }
    : done === "frames"
    ? { notice: "Saved. Checkout pages may now be framed by exactly these sites." }
    : {})
})


/** Saves what the form ticked (core's chooseCheckoutSettings decides what that means); a refusal is said on the page. */
const save = Effect.gen(function*() {
  const form = yield* SentForm
  const frame = yield* CurrentFrame
  const ticked = form.getAll("gateway_ids").filter((id) => WHOLE_ID.test(id)).map(Number)
  const added = (form.get("add_currencies") ?? "").split(/[\s,]+/).filter((code) => code !== "").map((code) => code.toUpperCase())
  const currencies = [...new Set([...form.getAll("currencies"), ...added])]
  const outcome = yield* chooseCheckoutSettings(scopeOf(frame), { currencies, gatewayIds: ticked }).pipe(
    Effect.map(() => undefined),
    Effect.catchTags({
      CurrenciesWithoutGateway: (starved) =>
        Effect.succeed(`Tick at least one gateway for ${starved.currencies.join(", ")}: checkout would have nothing to offer in it.`),
      ValidationFailed: (error) => Effect.succeed(problemText(error))
    })
  )
  if (outcome !== undefined) {
    return yield* page(frame, 422, { problem: outcome })
  }
  return seeOther(linkTo(frame, "/api-config", { done: "saved" }))
})

/** Replaces the sites that may frame checkout (one origin a line), by the operator's own rule (checkout-frames.ts). */
const saveFrames = Effect.gen(function*() {
  const form = yield* SentForm
  const frame = yield* CurrentFrame
  const sent = form.get("checkout_frame_ancestors") ?? ""
  const outcome = yield* replaceCheckoutFrameAncestors(frame.visitor.merchant.id, sent.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "")).pipe(
    Effect.map(() => undefined),
    Effect.catchIf((error) => error._tag === "ValidationFailed", (error) => Effect.succeed(problemText(error)))
  )
  if (outcome !== undefined) return yield* page(frame, 422, { problem: outcome, framesSent: sent })
  return seeOther(linkTo(frame, "/api-config", { done: "frames" }))
})

export const dashboardApiConfigPages = [
  dashboardRoute({
    method: "get", path: "/dashboard/api-config", operationId: "dashboardApiConfig", view: "member",
    summary: "API Config: the currencies checkout takes and the gateways it offers per currency",
    success: { status: 200, description: "The page; owners get the form.", contentType: HTML_PAGE },
    handler: show
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/api-config", operationId: "dashboardSaveApiConfig", form: "owner",
    audit: { operation: "updateCheckoutSettings", fields: ["currencies", "gateway_ids"] },
    summary: "Save the API Config (owners)",
    description: "Form fields `currencies` and `gateway_ids` (repeated), `add_currencies`, `csrf_token`, `environment`. The next checkout page on this host offers exactly this.",
    success: { status: 303, description: "Saved: back to the page." },
    others: [{ status: 422, description: "Refused, said on the page.", contentType: HTML_PAGE }],
    handler: save
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/api-config/frame-ancestors", operationId: "dashboardSaveCheckoutFrameAncestors", form: "owner",
    audit: { operation: "replaceCheckoutFrameAncestors", fields: ["checkout_frame_ancestors"] },
    summary: "Save the sites that may frame hosted checkout (owners)",
    description: "Form fields `checkout_frame_ancestors` (https origins, one a line), `csrf_token`, `environment`. The next checkout page sends exactly these in CSP frame-ancestors.",
    success: { status: 303, description: "Saved: back to the API Config page." },
    others: [{ status: 422, description: "Refused, said on the page.", contentType: HTML_PAGE }],
    handler: saveFrames
  })
] as const
