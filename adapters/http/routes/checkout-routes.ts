import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { exponentOfHeld } from "../../../core/money/currency-catalog.js"
import { toCurrencyString } from "../../../core/money/format.js"
import { CheckoutLinks } from "../../../core/payments/checkout-links.js"
import { checkoutFramers } from "../../../core/merchants/checkout-frames.js"
import { cancelCheckout, type CheckoutClosed, lastDecline, offeredGateways, openCheckout } from "../../../core/payments/checkout-session.js"
import { beginGatewayCheckout, settleGatewayReturn } from "../../../core/payments/gateway-checkout.js"
import type { Payment } from "../../../core/payments/payment.js"
import { GatewayId } from "../../../core/shared/ids.js"
import { now } from "../../../core/shared/instant.js"
import { CHECKOUT_EMBED_SCRIPT } from "../checkout/embed-script.js"
import { PAGE_HEADERS, pageHeaders } from "../checkout/html.js"
import { merchantReturnUrl } from "../checkout/merchant-return.js"
import { type Locale, localeOfTag, negotiateLocale } from "../checkout/locale.js"
import { checkoutPage, framedEndPage, gatewayPage, messagePage } from "../checkout/pages.js"
import { readRawBody } from "../request/request-body.js"
import { withSpanWhenTraced } from "../../../core/shared/trace-context.js"
import { staticAsset } from "../response/static-asset.js"
import type { Html } from "../pages/html.js"
import { htmlResponse } from "../pages/html-response.js"

/** Why a checkout request ends on an explanatory page instead of the flow; `framers` may frame it (its merchant's). */
class PageAnswer {
  constructor(readonly status: number, readonly html: Html, readonly framers: ReadonlyArray<string> = []) {}
}

/** Why it ends elsewhere: its payment has ended, so the customer goes back to the merchant. */
class SentBack {
  constructor(readonly response: HttpServerResponse.HttpServerResponse) {}
}

const pageAnswer = (status: number, page: Html, headers: Readonly<Record<string, string>> = PAGE_HEADERS) =>
  htmlResponse(page, { status, headers })

/** The browser says the page is loading inside a frame (Fetch Metadata; sent by every current browser to https and loopback). */
const inFrame = Effect.map(HttpServerRequest.HttpServerRequest, (request) => request.headers["sec-fetch-dest"] === "iframe")

/**
 * The customer's language: the `locale` query parameter, else Accept-Language (checkout/locale.ts).
 * A `locale` asked for in the query is carried on in the page's own links and forms.
 */
interface PageLanguage {
  readonly locale: Locale
  /** `?locale=xx` for the page's links when the query chose the language; "" otherwise. */
  readonly carried: string
}

const pageLanguage = Effect.map(HttpServerRequest.HttpServerRequest, (request): PageLanguage => {
  const asked = new URL(request.url, "http://checkout.invalid").searchParams.get("locale")
  const fromQuery = asked === null ? undefined : localeOfTag(asked)
  return {
    locale: negotiateLocale(asked, request.headers["accept-language"]),
    carried: fromQuery === undefined ? "" : `?locale=${fromQuery}`
  }
})

const notFound = (locale: Locale) => new PageAnswer(404, messagePage(locale, "notFound"))

/**
 * Back to the merchant, with the payment named in the query (merchantReturnUrl). Inside a frame of
 * one of the merchant's listed origins the frame stays on the kit's last page, which tells the parent.
 */
const settledAnswer = (payment: Payment, locale: Locale, framers: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const location = merchantReturnUrl(payment, payment.status === "success" ? "success" : "cancel")
    if (framers.length > 0 && (yield* inFrame)) {
      const scriptSrc = `${yield* publicBase}${EMBED_SCRIPT_PATH}`
      return pageAnswer(200, framedEndPage({ locale, payment, returnHref: location, framers, scriptSrc }), pageHeaders(framers, true))
    }
    return location === undefined
      ? pageAnswer(200, messagePage(locale, "finished"), pageHeaders(framers))
      : HttpServerResponse.redirect(location, { status: 303 })
  })

/** The page a closed session answers with; expired and voided ones offer the way back to the merchant. */
const closedPage = (closed: CheckoutClosed, locale: Locale) =>
  Effect.gen(function*() {
    const back = closed.payment === undefined ? undefined : merchantReturnUrl(closed.payment, "cancel")
    const backLink = back === undefined ? undefined : { href: back, label: "returnToMerchant" as const }
    const framers = yield* checkoutFramers(closed.payment?.merchantId)
    switch (closed.reason) {
      case "unknownLink":
        return notFound(locale)
      case "invoiceCancelled":
        return new PageAnswer(410, messagePage(locale, "invoiceCancelled", backLink), framers)
      case "expired":
        return new PageAnswer(410, messagePage(locale, "expired", backLink), framers)
      case "merchantUnavailable":
        return new PageAnswer(403, messagePage(locale, "merchantUnavailable"), framers)
    }
  })

/** The session a link names (openCheckout), with what its page shows. */
const session = (token: string, language: PageLanguage) => Effect.gen(function*() {
  const { carried, locale } = language
  const { payment, merchant } = yield* openCheckout(token).pipe(Effect.catchTags({
    CheckoutClosed: (closed) => Effect.flatMap(closedPage(closed, locale), Effect.fail),
    CheckoutEnded: (ended) =>
      checkoutFramers(ended.payment.merchantId).pipe(
        Effect.flatMap((framers) => settledAnswer(ended.payment, locale, framers)),
        Effect.flatMap((response) => Effect.fail(new SentBack(response)))
      )
  }))
  const exponent = yield* exponentOfHeld(payment.currency)
  // Absolute, under the public base address: correct even when the kit is mounted under a prefix.
  const base = `${yield* publicBase}/checkout/${token}`
  const framers = yield* checkoutFramers(merchant.id)
  return {
    base,
    payment,
    framers,
    headers: pageHeaders(framers),
    view: {
      payment,
      merchantName: merchant.name,
      displayAmount: toCurrencyString(payment.amount, exponent),
      exponent,
      now: yield* now,
      payAction: `${base}/pay${carried}`,
      cancelAction: `${base}/cancel${carried}`,
      locale
    }
  }
})

/** One of the session's usable gateways, or the page `missing` says. */
const offeredGateway = (payment: Payment, id: number, missing: () => PageAnswer) =>
  Effect.gen(function*() {
    const gateway = (yield* offeredGateways(payment)).find((candidate) => candidate.id === GatewayId(id))
    if (gateway === undefined) return yield* Effect.fail(missing())
    return gateway
  })

const formFields = (locale: Locale) => Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const query = new URL(request.url, "http://checkout.invalid").searchParams
  const raw = yield* readRawBody.pipe(Effect.mapError((error) =>
    error._tag === "BodyTooLarge" ? new PageAnswer(413, messagePage(locale, "tooLarge")) : new PageAnswer(400, messagePage(locale, "notUnderstood"))))
  const body = new URLSearchParams(new TextDecoder().decode(raw))
  return Object.fromEntries([...query, ...body])
})

const page = <E, R>(flow: Effect.Effect<HttpServerResponse.HttpServerResponse, E | PageAnswer | SentBack, R>) =>
  Effect.catchIf(flow, (error): error is PageAnswer | SentBack => error instanceof PageAnswer || error instanceof SentBack, (answer) =>
    Effect.succeed(answer instanceof SentBack ? answer.response : pageAnswer(answer.status, answer.html, pageHeaders(answer.framers))))

/** The choice of methods; after a gateway declined, it says so, since the customer may try again. */
const show = (token: string) => page(Effect.gen(function*() {
  const language = yield* pageLanguage
  const { headers, payment, view } = yield* session(token, language)
  const declinedBy = Option.getOrUndefined(yield* lastDecline(payment))?.name
  return pageAnswer(200, checkoutPage({ ...view, declinedBy, gateways: yield* offeredGateways(payment) }), headers)
}))

/**
 * `/pay` and `/cancel` opened as pages (a reload, the back button, a copied address): back to the
 * session's own page, which says where the payment stands. A GET never pays or cancels.
 */
const reopen = (token: string) => Effect.gen(function*() {
  const { carried } = yield* pageLanguage
  return HttpServerResponse.redirect(`${yield* publicBase}/checkout/${token}${carried}`, { status: 303 })
})

/** What the customer sees when a plugin throws, hangs or answers nonsense: another method, not an error. */
const unavailable = (base: string, language: PageLanguage, framers: ReadonlyArray<string>) =>
  new PageAnswer(502, messagePage(language.locale, "methodUnavailable", { href: `${base}${language.carried}`, label: "chooseAnother" }), framers)

/** Where the gateway posts for this record; the environment tells the plugin which keys the payment used. */
const notifyUrl = (payment: Payment, gatewayId: number) =>
  Effect.map(publicBase, (baseUrl) => `${baseUrl}/gateways/${gatewayId}/notify?environment=${payment.environment}`)

const pay = (token: string) => page(Effect.gen(function*() {
  const language = yield* pageLanguage
  const { base, framers, headers, payment, view } = yield* session(token, language)
  const gateway = yield* offeredGateway(payment, Number((yield* formFields(language.locale))["gateway_id"] ?? ""), () =>
    new PageAnswer(400, messagePage(language.locale, "chooseMethod"), framers))
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

const gatewayReturn = (token: string, gatewayText: string) => page(Effect.gen(function*() {
  const language = yield* pageLanguage
  const { locale } = language
  const { base, framers, headers, payment } = yield* session(token, language)
  const gateway = yield* offeredGateway(payment, Number(gatewayText), () => notFound(locale))
  const verdict = yield* settleGatewayReturn(payment, gateway, yield* formFields(locale)).pipe(Effect.catchTags({
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
      return pageAnswer(202, messagePage(locale, "processing"), headers)
    case "Flagged":
      return pageAnswer(202, messagePage(locale, "beingChecked"), headers)
    case "Ignored":
      return pageAnswer(400, messagePage(locale, "notConfirmed"), headers)
  }
}))

const cancel = (token: string) => page(Effect.gen(function*() {
  const language = yield* pageLanguage
  const { framers, payment } = yield* session(token, language)
  return yield* settledAnswer(yield* cancelCheckout(payment), language.locale, framers)
}))

/** The public address gateways send customers back to: the one checkout links were issued under. */
const publicBase = Effect.map(CheckoutLinks, (links) => links.baseUrl)

/** The checkout script's address, beside the pages (a path no token can take: it has a slash). */
const EMBED_SCRIPT_PATH = "/checkout/assets/embed.js"

/**
 * `/checkout/<token>[/pay|/cancel|/return/<gateway id>]`, parsed here rather than by the router:
 * the router refuses path parameters over 100 characters, and a signed token is longer.
 */
const TOKEN = "([A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+)"
const SHOW = new RegExp(`^${TOKEN}$`)
const PAY = new RegExp(`^${TOKEN}/pay$`)
const CANCEL = new RegExp(`^${TOKEN}/cancel$`)
const RETURN = new RegExp(`^${TOKEN}/return/(\\d{1,15})$`)

type PageEffect = ReturnType<typeof show> | ReturnType<typeof pay> | ReturnType<typeof cancel> | ReturnType<typeof gatewayReturn> | ReturnType<typeof reopen>

/** Each page's use case is a span named here, since the route (`/checkout/*`) cannot tell them apart. */
const dispatch = (routes: ReadonlyArray<readonly [RegExp, (...captures: Array<string>) => PageEffect, string]>) =>
  Effect.gen(function*() {
    const tail = (yield* HttpRouter.params)["*"] ?? ""
    for (const [pattern, handler, span] of routes) {
      const match = pattern.exec(tail)
      if (match !== null) return yield* withSpanWhenTraced(handler(...match.slice(1)), span, { captureStackTrace: false })
    }
    return pageAnswer(404, notFound((yield* pageLanguage).locale).html)
  })

export const checkoutRoutes = HttpRouter.empty.pipe(
  HttpRouter.get(EMBED_SCRIPT_PATH, staticAsset(CHECKOUT_EMBED_SCRIPT, "text/javascript; charset=utf-8")),
  HttpRouter.get("/checkout/*", dispatch([[SHOW, show, "checkoutPage"], [RETURN, gatewayReturn, "checkoutReturn"], [PAY, reopen, "checkoutPage"], [CANCEL, reopen, "checkoutPage"]])),
  HttpRouter.post("/checkout/*", dispatch([[PAY, pay, "checkoutPay"], [CANCEL, cancel, "checkoutCancel"], [RETURN, gatewayReturn, "checkoutReturn"]]))
)
