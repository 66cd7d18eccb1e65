import * as Effect from "effect/Effect"
import { checkoutFrameAncestors, replaceCheckoutFrameAncestors } from "../../../core/merchants/checkout-frames.js"
import { checkoutSettings, updateCheckoutSettings } from "../../../core/merchants/checkout-settings.js"
import { apiConfigPage } from "../dashboard/api-config-page.js"
import { recordDashboardAction } from "../dashboard/dashboard-audit.js"
import { answerWith, htmlAnswer, seeOther } from "../dashboard/dashboard-response.js"
import { linkTo, type PageFrame } from "../dashboard/layout.js"
import { pageFrame, postedForm, requestQuery, requireOwner, scopeOf } from "../dashboard/page-frame.js"
import { problemText } from "../dashboard/page-problems.js"
import { dashboardPage, HTML_PAGE } from "../dashboard/dashboard-page.js"
import { WHOLE_ID } from "../request/path-params.js"

const page = (frame: PageFrame, status: number, messages: { readonly notice?: string; readonly problem?: string; readonly framesSent?: string }) =>
  Effect.gen(function*() {
    const settings = yield* checkoutSettings(scopeOf(frame))
    const frameAncestors = yield* checkoutFrameAncestors(frame.visitor.merchant.id)
    return htmlAnswer(status, apiConfigPage({
      frame, settings, frameAncestors, frameAncestorsSent: messages.framesSent, notice: messages.notice, problem: messages.problem
    }))
  })

const show = answerWith(Effect.gen(function*() {
  const frame = yield* pageFrame
  const done = (yield* requestQuery).get("done")
  return yield* page(frame, 200, done === "saved"
    ? { notice: "Saved. The next checkout page offers exactly this." }
    : done === "frames"
    ? { notice: "Saved. Checkout pages may now be framed by exactly these sites." }
    : {})
}))


/**
 * Saves what the form ticked. Every available gateway ticked is no restriction at all (so a gateway
 * the operator adds later is offered too). The selection is one list across currencies, so a
 * currency taken with none of its gateways ticked would leave its checkout nothing to offer: that is
 * refused, naming the currency.
 */
const save = answerWith(Effect.gen(function*() {
  const { form, frame } = yield* postedForm
  yield* requireOwner(frame)
  const current = yield* checkoutSettings(scopeOf(frame))
  const ticked = form.getAll("gateway_ids").filter((id) => WHOLE_ID.test(id)).map(Number)
  const added = (form.get("add_currencies") ?? "").split(/[\s,]+/).filter((code) => code !== "").map((code) => code.toUpperCase())
  const currencies = [...new Set([...form.getAll("currencies"), ...added])]
  const available = current.gateways.filter((gateway) => gateway.available).map((gateway) => Number(gateway.id))
  const audit = (status: number) =>
    recordDashboardAction(frame, { operation: "updateCheckoutSettings", route: "/dashboard/api-config", pathParams: {}, status, fields: ["currencies", "gateway_ids"] })
  const taken = new Set(currencies)
  const starved = [...new Set(current.gateways.filter((gateway) => gateway.available && taken.has(gateway.currency)).map((gateway) => gateway.currency))]
    .filter((currency) => !current.gateways.some((gateway) => gateway.currency === currency && ticked.includes(Number(gateway.id))))
  if (starved.length > 0) {
    yield* audit(422)
    return yield* page(frame, 422, { problem: `Tick at least one gateway for ${starved.join(", ")}: checkout would have nothing to offer in it.` })
  }
  const everything = available.length > 0 && available.every((id) => ticked.includes(id)) && ticked.every((id) => available.includes(id))
  const outcome = yield* updateCheckoutSettings(frame.visitor.merchant.id, { currencies, gatewayIds: everything ? [] : ticked }).pipe(
    Effect.map(() => undefined),
    Effect.catchIf((error) => error._tag === "ValidationFailed", (error) => Effect.succeed(problemText(error)))
  )
  if (outcome !== undefined) {
    yield* audit(422)
    return yield* page(frame, 422, { problem: outcome })
  }
  yield* audit(303)
  return seeOther(linkTo(frame, "/api-config", { done: "saved" }))
}))

/** Replaces the sites that may frame checkout (one origin a line), by the operator's own rule (checkout-frames.ts). */
const saveFrames = answerWith(Effect.gen(function*() {
  const { form, frame } = yield* postedForm
  yield* requireOwner(frame)
  const sent = form.get("checkout_frame_ancestors") ?? ""
  const outcome = yield* replaceCheckoutFrameAncestors(frame.visitor.merchant.id, sent.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "")).pipe(
    Effect.map(() => undefined),
    Effect.catchIf((error) => error._tag === "ValidationFailed", (error) => Effect.succeed(problemText(error)))
  )
  yield* recordDashboardAction(frame, {
    operation: "replaceCheckoutFrameAncestors", route: "/dashboard/api-config/frame-ancestors", pathParams: {}, status: outcome === undefined ? 303 : 422,
    fields: ["checkout_frame_ancestors"]
  })
  if (outcome !== undefined) return yield* page(frame, 422, { problem: outcome, framesSent: sent })
  return seeOther(linkTo(frame, "/api-config", { done: "frames" }))
}))

export const dashboardApiConfigPages = [
  dashboardPage({
    method: "get", path: "/dashboard/api-config", operationId: "dashboardApiConfig", signedIn: true,
    summary: "API Config: the currencies checkout takes and the gateways it offers per currency",
    success: { status: 200, description: "The page; owners get the form.", contentType: HTML_PAGE },
    handler: show
  }),
  dashboardPage({
    method: "post", path: "/dashboard/api-config", operationId: "dashboardSaveApiConfig", signedIn: true,
    summary: "Save the API Config (owners)",
    description: "Form fields `currencies` and `gateway_ids` (repeated), `add_currencies`, `csrf_token`, `environment`. The next checkout page on this host offers exactly this.",
    success: { status: 303, description: "Saved: back to the page." },
    others: [{ status: 403, description: "No valid form token, or a viewer.", contentType: HTML_PAGE }, { status: 422, description: "Refused, said on the page.", contentType: HTML_PAGE }],
    handler: save
  }),
  dashboardPage({
    method: "post", path: "/dashboard/api-config/frame-ancestors", operationId: "dashboardSaveCheckoutFrameAncestors", signedIn: true,
    summary: "Save the sites that may frame hosted checkout (owners)",
    description: "Form fields `checkout_frame_ancestors` (https origins, one a line), `csrf_token`, `environment`. The next checkout page sends exactly these in CSP frame-ancestors.",
    success: { status: 303, description: "Saved: back to the API Config page." },
    others: [{ status: 403, description: "No valid form token, or a viewer.", contentType: HTML_PAGE }, { status: 422, description: "Refused, said on the page.", contentType: HTML_PAGE }],
    handler: saveFrames
  })
] as const
