import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { exponentOfHeld } from "../../../core/money/currency-catalog.js"
import { toCurrencyString } from "../../../core/money/format.js"
import { CheckoutLinks } from "../../../core/payments/checkout-links.js"
import { checkoutFramers } from "../../../core/merchants/checkout-frames.js"
import { type CheckoutClosed, offeredGateways, openCheckout } from "../../../core/payments/open-checkout.js"
import type { Payment } from "../../../core/payments/payment.js"
import { GatewayId } from "../../../core/shared/ids.js"
import { now } from "../../../core/shared/instant.js"
import { readRawBody } from "../request/request-body.js"
import type { Html } from "../pages/html.js"
import { htmlResponse } from "../pages/html-response.js"
import { PAGE_HEADERS, pageHeaders } from "./html.js"
import { merchantReturnUrl } from "./merchant-return.js"
import { type Locale, localeOfTag, negotiateLocale } from "./locale.js"
import { checkoutNotice, framedEndPage } from "./pages.js"

/** Why a checkout request ends on an explanatory page instead of the flow; `framers` may frame it (its merchant's). */
export class CheckoutEndsOnPage {
  constructor(readonly status: number, readonly html: Html, readonly framers: ReadonlyArray<string> = []) {}
}

/** Why it ends elsewhere: its payment has ended, so the customer goes back to the merchant. */
class SentBack {
  constructor(readonly response: HttpServerResponse.HttpServerResponse) {}
}

export const pageAnswer = (status: number, page: Html, headers: Readonly<Record<string, string>> = PAGE_HEADERS) =>
  htmlResponse(page, { status, headers })

/** The public address gateways send customers back to: the one checkout links were issued under. */
export const publicBase = Effect.map(CheckoutLinks, (links) => links.baseUrl)

/** The checkout script's address, beside the pages (a path no token can take: it has a slash). */
export const EMBED_SCRIPT_PATH = "/checkout/assets/embed.js"

/** The browser says the page is loading inside a frame (Fetch Metadata; sent by every current browser to https and loopback). */
const inFrame = Effect.map(HttpServerRequest.HttpServerRequest, (request) => request.headers["sec-fetch-dest"] === "iframe")

/**
 * The customer's language: the `locale` query parameter, else Accept-Language (checkout/locale.ts).
 * A `locale` asked for in the query is carried on in the page's own links and forms.
 */
export interface PageLanguage {
  readonly locale: Locale
  /** `?locale=xx` for the page's links when the query chose the language; "" otherwise. */
  readonly carried: string
}

export const pageLanguage = Effect.map(HttpServerRequest.HttpServerRequest, (request): PageLanguage => {
  const asked = new URL(request.url, "http://checkout.invalid").searchParams.get("locale")
  const fromQuery = asked === null ? undefined : localeOfTag(asked)
  return {
    locale: negotiateLocale(asked, request.headers["accept-language"]),
    carried: fromQuery === undefined ? "" : `?locale=${fromQuery}`
  }
})

/** A path parameter of the page's address (checkout-routes.ts declares them and the shape of each). */
export const pathParameter = (name: "token" | "gateway_id") => Effect.map(HttpRouter.params, (params) => params[name] ?? "")

export const notFound = (locale: Locale) => new CheckoutEndsOnPage(404, checkoutNotice(locale, "notFound"))

/** The page for an address under /checkout/ that names no page of it. */
export const noSuchPage = Effect.map(pageLanguage, ({ locale }) => pageAnswer(404, notFound(locale).html))

/**
 * Back to the merchant, with the payment named in the query (merchantReturnUrl). Inside a frame of
 * one of the merchant's listed origins the frame stays on the kit's last page, which tells the parent.
 */
export const settledAnswer = (payment: Payment, locale: Locale, framers: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const location = merchantReturnUrl(payment, payment.status === "success" ? "success" : "cancel")
    if (framers.length > 0 && (yield* inFrame)) {
      const scriptSrc = `${yield* publicBase}${EMBED_SCRIPT_PATH}`
      return pageAnswer(200, framedEndPage({ locale, payment, returnHref: location, framers, scriptSrc }), pageHeaders(framers, true))
    }
    return location === undefined
      ? pageAnswer(200, checkoutNotice(locale, "finished"), pageHeaders(framers))
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
        return new CheckoutEndsOnPage(410, checkoutNotice(locale, "invoiceCancelled", backLink), framers)
      case "expired":
        return new CheckoutEndsOnPage(410, checkoutNotice(locale, "expired", backLink), framers)
      case "merchantUnavailable":
        return new CheckoutEndsOnPage(403, checkoutNotice(locale, "merchantUnavailable"), framers)
    }
  })

/** The session a link names (openCheckout), with what its page shows. */
export const session = (token: string, language: PageLanguage) => Effect.gen(function*() {
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
export const offeredGateway = (payment: Payment, id: number, missing: () => CheckoutEndsOnPage) =>
  Effect.gen(function*() {
    const gateway = (yield* offeredGateways(payment)).find((candidate) => candidate.id === GatewayId(id))
    if (gateway === undefined) return yield* Effect.fail(missing())
    return gateway
  })

/** The query's and the posted form's fields, the form's winning. */
export const postedFields = (locale: Locale) => Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const query = new URL(request.url, "http://checkout.invalid").searchParams
  const raw = yield* readRawBody.pipe(Effect.mapError((error) =>
    error._tag === "BodyTooLarge"
      ? new CheckoutEndsOnPage(413, checkoutNotice(locale, "tooLarge"))
      : new CheckoutEndsOnPage(400, checkoutNotice(locale, "notUnderstood"))))
  const body = new URLSearchParams(new TextDecoder().decode(raw))
  return Object.fromEntries([...query, ...body])
})

/** What the customer sees when a plugin throws, hangs or answers nonsense: another method, not an error. */
export const unavailable = (base: string, language: PageLanguage, framers: ReadonlyArray<string>) =>
  new CheckoutEndsOnPage(502, checkoutNotice(language.locale, "methodUnavailable", { href: `${base}${language.carried}`, label: "chooseAnother" }), framers)

/** A step of the flow as a page: where it ends on an explanatory page or back at the merchant, that is its answer. */
export const checkoutStep = <E, R>(flow: Effect.Effect<HttpServerResponse.HttpServerResponse, E | CheckoutEndsOnPage | SentBack, R>) =>
  Effect.catchIf(flow, (error): error is CheckoutEndsOnPage | SentBack => error instanceof CheckoutEndsOnPage || error instanceof SentBack, (answer) =>
    Effect.succeed(answer instanceof SentBack ? answer.response : pageAnswer(answer.status, answer.html, pageHeaders(answer.framers))))
