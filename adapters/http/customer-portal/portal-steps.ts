import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import {
  awaitingPayment, cancellable, cancelCustomerSubscription, customerInvoiceDocument, type CustomerSubscription, customerSubscriptionDetail, customerSubscriptions,
  finishCustomerMethodSetup, merchantNameOf, payCustomerInvoice, portalMerchantName, updateCustomerPaymentMethod
} from "../../../core/customer-portal/customer-billing.js"
import { portalCancellationAllowed } from "../../../core/customer-portal/portal-cancellation.js"
import { redeemPortalLink } from "../../../core/customer-portal/portal-links.js"
import { exponentOfHeld } from "../../../core/money/currency-catalog.js"
import { toCurrencyString } from "../../../core/money/format.js"
import { CheckoutLinks } from "../../../core/payments/checkout-links.js"
import { MerchantId } from "../../../core/shared/ids.js"
import { toSeconds } from "../../../core/shared/instant.js"
import { savedMethodFactsOf } from "../../../core/subscriptions/saved-methods.js"
import { pageLanguage, publicBase } from "../checkout/checkout-flow.js"
import { pageHeaders } from "../checkout/html.js"
import { readRawBody } from "../request/request-body.js"
import { methodSetupPage } from "./method-setup-page.js"
import { portalMessagesFor } from "./portal-messages.js"
import { type PortalNotice, portalPage, type SubscriptionView } from "./portal-pages.js"
import { PORTAL_PATH } from "./portal-paths.js"
import { endsOn, portalAnswer, portalForm, portalStep, portalVisitor, withPortalCookie } from "./portal-visitor.js"

/** A link's or cookie's token as the kit makes them (base64url); anything else names no link. */
const TOKEN = /^[A-Za-z0-9_-]{16,128}$/

const NOTICES: ReadonlyArray<PortalNotice> = [
  "cancelled", "nothingToPay", "cannotCancel", "cancellationOff", "paymentUnavailable", "methodAtNextPayment", "methodClosed",
  "methodUpdated", "methodUnchanged", "methodSetupClosed", "methodUnavailable"
]

const pathParameter = (name: string) => Effect.map(HttpRouter.params, (params) => params[name] ?? "")

const portalBase = Effect.map(publicBase, (base) => `${base}${PORTAL_PATH}`)

/** Back to the portal's list (Post/Redirect/Get), with what happened said once on it. */
const backToPortal = (carried: string, notice?: PortalNotice) =>
  Effect.map(portalBase, (base) => {
    const query = new URLSearchParams(carried.startsWith("?") ? carried.slice(1) : "")
    if (notice !== undefined) query.set("notice", notice)
    const search = query.toString()
    return HttpServerResponse.redirect(`${base}${search === "" ? "" : `?${search}`}`, { status: 303, headers: pageHeaders() })
  })

/**
 * The link's one visit: opens the session (the cookie) and sends the customer on to the portal's own
 * address, so the token leaves the address bar and history. A used, expired or unknown link is
 * refused with a page that says which, and offers the way back to the merchant when it is known.
 */
export const openPortalLink = portalStep(Effect.gen(function*() {
  const { carried, locale } = yield* pageLanguage
  const t = portalMessagesFor(locale)
  const token = yield* pathParameter("token")
  if (!TOKEN.test(token)) return yield* Effect.fail(endsOn(404, locale, "linkUnknown"))
  const { sessionToken } = yield* redeemPortalLink(token).pipe(Effect.catchTag("PortalLinkRefused", (refused) =>
    Effect.gen(function*() {
      if (refused.reason === "unknown" || refused.returnUrl === null) return yield* Effect.fail(endsOn(404, locale, "linkUnknown"))
      const name = refused.merchantId === null ? Option.none() : yield* merchantNameOf(MerchantId(refused.merchantId))
      const back = { href: refused.returnUrl, label: Option.match(name, { onNone: () => t.returnToMerchant, onSome: t.returnTo }) }
      return yield* Effect.fail(endsOn(410, locale, refused.reason === "used" ? "linkUsed" : "linkExpired", back))
    })))
  return yield* withPortalCookie(yield* backToPortal(carried), sessionToken)
}))

/** What the page shows of each subscription: exact amounts in the currency's digits, and what the customer may do. */
const viewOf = (cancellationAllowed: boolean) => (item: CustomerSubscription) =>
  Effect.map(Effect.all([exponentOfHeld(item.subscription.currency), savedMethodFactsOf(item.subscription)]), ([exponent, savedMethod]): SubscriptionView => {
    const latest = item.invoices[0]
    const unpaid = latest !== undefined && (latest.status === "pending" || latest.status === "expired")
    return {
      ...item,
      exponent,
      decimal: (of) => toCurrencyString(of.amount, exponent),
      payable: awaitingPayment(item.subscription) && unpaid ? latest : undefined,
      cancellable: cancellationAllowed && cancellable(item.subscription),
      savedMethod
    }
  })

const showPortal = (single: string | undefined) => portalStep(Effect.gen(function*() {
  const { carried, locale } = yield* pageLanguage
  const { formToken, session } = yield* portalVisitor(locale)
  const base = yield* portalBase
  const items = single === undefined
    ? yield* customerSubscriptions(session)
    : [yield* customerSubscriptionDetail(session, single).pipe(Effect.catchTag("PortalItemNotFound", () =>
      Effect.fail(endsOn(404, locale, "notFound", { href: `${base}${carried}`, label: portalMessagesFor(locale).allSubscriptions }))))]
  const allowed = yield* portalCancellationAllowed(session.merchantId)
  const request = yield* HttpServerRequest.HttpServerRequest
  const asked = new URL(request.url, "http://portal.invalid").searchParams.get("notice")
  return portalAnswer(200, portalPage({
    locale,
    carried,
    base,
    merchantName: yield* portalMerchantName(session),
    environment: session.environment,
    customerEmail: session.customerEmail,
    returnUrl: session.returnUrl,
    formToken,
    notice: NOTICES.find((notice) => notice === asked),
    subscriptions: yield* Effect.forEach(items, viewOf(allowed)),
    single: single !== undefined
  }))
}))

export const showPortalHome = showPortal(undefined)

export const showPortalSubscription = Effect.flatMap(pathParameter("subscription_id"), (id) => showPortal(id))

const notFoundOnPortal = (locale: Parameters<typeof portalMessagesFor>[0], carried: string) =>
  Effect.flatMap(portalBase, (base) =>
    Effect.fail(endsOn(404, locale, "notFound", { href: `${base}${carried}`, label: portalMessagesFor(locale).allSubscriptions })))

/** "Pay": the invoice's checkout (open, or fresh when it lapsed), where the customer goes to pay. */
export const payPortalInvoice = portalStep(Effect.gen(function*() {
  const { carried, locale } = yield* pageLanguage
  const { session } = yield* portalForm(locale, `${yield* portalBase}${carried}`)
  const invoice = yield* payCustomerInvoice(session, yield* pathParameter("invoice_id")).pipe(
    Effect.map((invoice) => ({ invoice })),
    Effect.catchTags({
      PortalItemNotFound: () => notFoundOnPortal(locale, carried),
      PortalActionRefused: () => Effect.succeed({ notice: "nothingToPay" as const }),
      // Opening a fresh checkout can meet the merchant's currency or wallet gone since the subscription began.
      CurrencyNotEnabled: () => Effect.succeed({ notice: "paymentUnavailable" as const }),
      ReceiverWalletUnavailable: () => Effect.succeed({ notice: "paymentUnavailable" as const }),
      DuplicateReference: () => Effect.succeed({ notice: "paymentUnavailable" as const }),
      InvoiceSequenceTaken: () => Effect.succeed({ notice: "paymentUnavailable" as const })
    })
  )
  if ("notice" in invoice) return yield* backToPortal(carried, invoice.notice)
  const { trxId, checkoutExpiresAt } = invoice.invoice
  if (trxId === null || checkoutExpiresAt === null) return yield* backToPortal(carried, "paymentUnavailable")
  const links = yield* CheckoutLinks
  const link = links.linkFor(trxId, toSeconds(checkoutExpiresAt))
  return HttpServerResponse.redirect(`${link}${carried}`, { status: 303, headers: pageHeaders() })
}))

/** An invoice's PDF, or with `?kind=receipt` a paid invoice's receipt: only the customer's own. */
export const portalInvoiceDocument = portalStep(Effect.gen(function*() {
  const { carried, locale } = yield* pageLanguage
  const { session } = yield* portalVisitor(locale)
  const request = yield* HttpServerRequest.HttpServerRequest
  const kind = new URL(request.url, "http://portal.invalid").searchParams.get("kind") === "receipt" ? "receipt" : "invoice"
  const document = yield* customerInvoiceDocument(session, yield* pathParameter("invoice_id"), kind).pipe(
    Effect.catchTag("PortalItemNotFound", () => notFoundOnPortal(locale, carried))
  )
  return HttpServerResponse.uint8Array(document.bytes, {
    contentType: "application/pdf",
    headers: { ...pageHeaders(), "content-disposition": `attachment; filename="${document.filename}"` }
  })
}))

/** "Cancel at period end", when the merchant allows it; back to the list, which says so. */
export const cancelPortalSubscription = portalStep(Effect.gen(function*() {
  const { carried, locale } = yield* pageLanguage
  const { session } = yield* portalForm(locale, `${yield* portalBase}${carried}`)
  const outcome = yield* cancelCustomerSubscription(session, yield* pathParameter("subscription_id")).pipe(
    Effect.as("cancelled" as const),
    Effect.catchTags({
      PortalItemNotFound: () => notFoundOnPortal(locale, carried),
      PortalActionRefused: (refused) => Effect.succeed(refused.reason === "cancellationOff" ? "cancellationOff" as const : "cannotCancel" as const)
    })
  )
  return yield* backToPortal(carried, outcome)
}))

/** Where a setup session of this portal comes back, and where a customer who gives up there lands. */
const setupAddresses = (base: string, carried: string) => (setupId: string) => {
  const query = new URLSearchParams(carried.startsWith("?") ? carried.slice(1) : "")
  query.set("notice", "methodUnchanged")
  return { returnUrl: `${base}/method-setups/${setupId}/return${carried}`, cancelUrl: `${base}?${query.toString()}` }
}

/**
 * "Update payment method": with an open invoice, its hosted checkout (paying there saves the card
 * used); with nothing to pay, a setup-only session (the gateway's page, or its form inside the kit's);
 * when neither can be had, back to the portal saying the card changes at the next payment.
 */
export const updatePortalPaymentMethod = portalStep(Effect.gen(function*() {
  const { carried, locale } = yield* pageLanguage
  const { session } = yield* portalForm(locale, `${yield* portalBase}${carried}`)
  const base = yield* portalBase
  const outcome = yield* updateCustomerPaymentMethod(session, yield* pathParameter("subscription_id"), setupAddresses(base, carried)).pipe(
    Effect.catchTags({
      PortalItemNotFound: () => notFoundOnPortal(locale, carried),
      PortalActionRefused: (refused) => Effect.succeed({ _tag: "Notice" as const, notice: refused.reason === "methodClosed" ? "methodClosed" as const : "methodAtNextPayment" as const }),
      // The gateway could not start a setup now: nothing changed, and the customer may try again.
      PluginCallFailed: () => Effect.succeed({ _tag: "Notice" as const, notice: "methodUnavailable" as const }),
      UnknownGatewayPlugin: () => Effect.succeed({ _tag: "Notice" as const, notice: "methodUnavailable" as const })
    })
  )
  switch (outcome._tag) {
    case "Notice":
      return yield* backToPortal(carried, outcome.notice)
    case "Checkout":
      return HttpServerResponse.redirect(`${outcome.url}${carried}`, { status: 303, headers: pageHeaders() })
    case "Setup": {
      const { start } = outcome
      if ("redirect" in start) return HttpServerResponse.redirect(start.redirect, { status: 303, headers: pageHeaders() })
      return portalAnswer(200, methodSetupPage({
        locale,
        environment: session.environment,
        merchantName: yield* portalMerchantName(session),
        gatewayName: outcome.gatewayName,
        backHref: `${base}${carried}`
      }, start.html))
    }
  }
}))

/** The query's and the posted form's fields (the form's winning), as a gateway sends the customer back. */
const returnedFields = (locale: Parameters<typeof portalMessagesFor>[0], home: string) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const query = new URL(request.url, "http://portal.invalid").searchParams
    const raw = yield* readRawBody.pipe(Effect.mapError(() => endsOn(400, locale, "formExpired", { href: home, label: portalMessagesFor(locale).allSubscriptions })))
    return Object.fromEntries([...query, ...new URLSearchParams(new TextDecoder().decode(raw))])
  })

/**
 * The return from a setup session (GET or POST, as the gateway sends it): in the customer's own
 * portal session, for one of their own subscriptions. Back to the portal, which says whether the
 * method changed; a used or expired session changes nothing and says so.
 */
export const finishPortalMethodSetup = portalStep(Effect.gen(function*() {
  const { carried, locale } = yield* pageLanguage
  const { session } = yield* portalVisitor(locale)
  const fields = yield* returnedFields(locale, `${yield* portalBase}${carried}`)
  const notice = yield* finishCustomerMethodSetup(session, yield* pathParameter("setup_id"), fields).pipe(
    Effect.map((outcome) => outcome._tag === "Saved" ? "methodUpdated" as const : "methodUnchanged" as const),
    Effect.catchTags({
      PortalItemNotFound: () => notFoundOnPortal(locale, carried),
      MethodSetupClosed: () => Effect.succeed("methodSetupClosed" as const),
      PluginCallFailed: () => Effect.succeed("methodUnavailable" as const),
      UnknownGatewayPlugin: () => Effect.succeed("methodUnavailable" as const)
    })
  )
  return yield* backToPortal(carried, notice)
}))
