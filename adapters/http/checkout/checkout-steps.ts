import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { cancelCheckout, lastDecline, offeredGateways } from "../../../core/payments/open-checkout.js"
import { beginGatewayCheckout, settleGatewayReturn } from "../../../core/payments/gateway-checkout.js"
import type { Payment } from "../../../core/payments/payment.js"
import {
  CheckoutEndsOnPage, checkoutStep, notFound, offeredGateway, pageAnswer, pageLanguage, pathParameter, postedFields, publicBase, session,
  settledAnswer, unavailable
} from "./checkout-flow.js"
import { checkoutNotice, checkoutPage, gatewayPage } from "./pages.js"

const token = pathParameter("token")

/** The choice of methods; after a gateway declined, it says so, since the customer may try again. */
export const showCheckout = checkoutStep(Effect.gen(function*() {
  const language = yield* pageLanguage
  const { headers, payment, view } = yield* session(yield* token, language)
  const declinedBy = Option.getOrUndefined(yield* lastDecline(payment))?.name
  return pageAnswer(200, checkoutPage({ ...view, declinedBy, gateways: yield* offeredGateways(payment) }), headers)
}))

/**
 * `/pay` and `/cancel` opened as pages (a reload, the back button, a copied address): back to the
 * session's own page, which says where the payment stands. A GET never pays or cancels.
 */
export const reopenCheckout = Effect.gen(function*() {
  const { carried } = yield* pageLanguage
  return HttpServerResponse.redirect(`${yield* publicBase}/checkout/${yield* token}${carried}`, { status: 303 })
})

/** Where the gateway posts for this record; the environment tells the plugin which keys the payment used. */
const notifyUrl = (payment: Payment, gatewayId: number) =>
  Effect.map(publicBase, (baseUrl) => `${baseUrl}/gateways/${gatewayId}/notify?environment=${payment.environment}`)

export const payCheckout = checkoutStep(Effect.gen(function*() {
  const language = yield* pageLanguage
  const { base, framers, headers, payment, view } = yield* session(yield* token, language)
  const gateway = yield* offeredGateway(payment, Number((yield* postedFields(language.locale))["gateway_id"] ?? ""), () =>
    new CheckoutEndsOnPage(400, checkoutNotice(language.locale, "chooseMethod"), framers))
  const start = yield* beginGatewayCheckout(payment, gateway, view, {
    returnUrl: `${base}/return/${gateway.id}`,
    cancelUrl: `${base}/cancel`,
    notifyUrl: yield* notifyUrl(payment, gateway.id)
  }).pipe(Effect.catchTags({
    PluginCallFailed: () => Effect.fail(unavailable(base, language, framers)),
    UnknownGatewayPlugin: () => Effect.fail(unavailable(base, language, framers))
  }))
  return "redirect" in start
    ? HttpServerResponse.redirect(start.redirect, { status: 303 })
    : pageAnswer(200, gatewayPage(view, gateway, start.html, `${base}${language.carried}`), headers)
}))

export const returnFromGateway = checkoutStep(Effect.gen(function*() {
  const language = yield* pageLanguage
  const { locale } = language
  const { base, framers, headers, payment } = yield* session(yield* token, language)
  const gateway = yield* offeredGateway(payment, Number(yield* pathParameter("gateway_id")), () => notFound(locale))
  const verdict = yield* settleGatewayReturn(payment, gateway, yield* postedFields(locale)).pipe(Effect.catchTags({
    PluginCallFailed: () => Effect.fail(unavailable(base, language, framers)),
    UnknownGatewayPlugin: () => Effect.fail(unavailable(base, language, framers))
  }))
  switch (verdict._tag) {
    case "Settled":
      return yield* settledAnswer(verdict.payment, locale, framers)
    case "Declined":
      // Back to the choice, which says why (a reload there is harmless, unlike one of this POST).
      return HttpServerResponse.redirect(`${base}${language.carried}`, { status: 303 })
    case "StillPending":
      return pageAnswer(202, checkoutNotice(locale, "processing"), headers)
    case "Flagged":
      return pageAnswer(202, checkoutNotice(locale, "beingChecked"), headers)
    case "Ignored":
      return pageAnswer(400, checkoutNotice(locale, "notConfirmed"), headers)
  }
}))

export const cancelCheckoutStep = checkoutStep(Effect.gen(function*() {
  const language = yield* pageLanguage
  const { framers, payment } = yield* session(yield* token, language)
  return yield* settledAnswer(yield* cancelCheckout(payment), language.locale, framers)
}))
