import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { AuthenticatedMerchant } from "../merchants/authenticator.js"
import { ATOMS_PER_UNIT, SCALE } from "../money/amount.js"
import { CurrencyCatalog } from "../money/currency-catalog.js"
import { type AmountInput, parseAmount } from "../money/parse.js"
import { fromSeconds, now, toSeconds } from "../shared/instant.js"
import { ValidationFailed } from "../shared/validation.js"
import { Ids } from "../signing/random-ids.js"
import { CheckoutConfigCache } from "./checkout-config.js"
import { CheckoutLinks } from "./checkout-links.js"
import type { Gateway } from "../gateways/gateway.js"
import { eligibleGateways, narrowByCodes, narrowByKeywords, servedIn } from "../gateways/gateway-eligibility.js"
import { GatewayPlugins } from "../gateways/gateway-plugin.js"
import { type MethodListInput, normalizeKeywords } from "../gateways/method-list.js"
import { NO_IPN_TARGET, paymentIpnUrlRefusal } from "../webhooks/ipn-url-rule.js"
import { CurrencyNotEnabled, DuplicateReference, type Payment, ReceiverWalletUnavailable } from "./payment.js"
import { PaymentRepository } from "./payment-repository.js"

/** Whose checkout it is: the merchant (only its id is read) and the environment its records live in. */
export interface CheckoutOwner {
  readonly merchant: Pick<AuthenticatedMerchant["merchant"], "id">
  readonly environment: AuthenticatedMerchant["environment"]
}

export interface InitiateRequest {
  readonly amount: AmountInput
  readonly currency: string
  readonly refTrx: string
  readonly successRedirect: string
  readonly cancelRedirect: string
  readonly ipnUrl: string
  readonly description: string | null
  readonly customerName: string | null
  readonly customerEmail: string | null
  /** `allow_payment_methods` as sent: keywords narrowing the gateways shown (normalizeKeywords). */
  readonly keywords: MethodListInput
  /** Exact gateway codes the checkout is limited to (a subscription's methods); empty for no limit. */
  readonly gatewayCodes?: ReadonlyArray<string>
  /** The subscription invoice this checkout settles; null for a plain payment. */
  readonly invoiceId?: string | null
}

/** What initiating a payment gives back: the pending payment, its signed checkout link, and the gateways behind it. */
export interface InitiatedPayment {
  readonly payment: Payment
  readonly paymentUrl: string
  /** Gateways eligible for the currency (the merchant's selection, or every active automatic one). */
  readonly eligible: ReadonlyArray<Gateway>
  /** Of those, the ones the keywords leave on the hosted page. */
  readonly shown: ReadonlyArray<Gateway>
  /** Whether the merchant picked specific gateways in its API config. */
  readonly restricted: boolean
}

const amountInvalid = (message: string) => ValidationFailed.field("amount", message, "INVALID_AMOUNT")

/**
 * Spec 4.1 steps 3 to 5 and the amount's rules, which every checkout in a currency must meet (a
 * payment session and a subscription invoice alike): the amount at least 1, the currency enabled
 * for the merchant, an active wallet in it, the amount within the currency's minor unit, and the
 * gateways that can serve it in this environment.
 */
export const checkoutTerms = (owner: CheckoutOwner, currency: string, amountInput: AmountInput) =>
  Effect.gen(function*() {
    const { merchant, environment } = owner
    const atScale = parseAmount(amountInput, SCALE)
    if (Either.isLeft(atScale)) return yield* amountInvalid(atScale.left.message)
    if (atScale.right < ATOMS_PER_UNIT) return yield* amountInvalid("The payment amount must be at least 1.00.")

    const config = yield* CheckoutConfigCache
    const { currencies, wallets, selection } = yield* config.forMerchant(merchant.id)
    const exponent = (yield* CurrencyCatalog).exponentOf(currency)
    if (!currencies.includes(currency) || Option.isNone(exponent)) return yield* new CurrencyNotEnabled({ currency })
    const wallet = wallets.find((candidate) => candidate.currency === currency && candidate.environment === environment)
    if (wallet === undefined || !wallet.active) return yield* new ReceiverWalletUnavailable({ currency })

    const amount = parseAmount(amountInput, exponent.value)
    if (Either.isLeft(amount)) return yield* amountInvalid(amount.left.message)

    const eligible = servedIn(environment, eligibleGateways({ gateways: yield* config.gateways, selection, currency }), (yield* GatewayPlugins).list)
    return { amount: amount.right, exponent: exponent.value, eligible, restricted: selection.length > 0 }
  })

/**
 * Spec 4.1 in its order, after authentication (which chose the key set and checked the merchant):
 * the terms above, the keywords' narrowing, and the pending payment with its signed link. The one
 * way a checkout begins: subscription invoices open theirs here too.
 */
export const initiatePayment = (owner: CheckoutOwner, request: InitiateRequest) =>
  Effect.gen(function*() {
    const { merchant, environment } = owner
    // An invoice's checkout carries its subscription's ipn_url, checked under the stricter rule when
    // the subscription was made: a setting changed since must not stop the customer paying.
    const ipnRefusal = (request.invoiceId ?? null) === null && request.ipnUrl !== NO_IPN_TARGET ? yield* paymentIpnUrlRefusal(request.ipnUrl) : undefined
    if (ipnRefusal !== undefined) return yield* ValidationFailed.field("ipnUrl", ipnRefusal)
    const { amount, eligible, restricted } = yield* checkoutTerms(owner, request.currency, request.amount)
    const keywords = normalizeKeywords(request.keywords)
    const shown = narrowByCodes(narrowByKeywords(eligible, keywords), request.gatewayCodes ?? [])

    const links = yield* CheckoutLinks
    const at = yield* now
    // Whole seconds, as the link's own expiry is: page and verify agree to the second.
    const expiresAt = fromSeconds(toSeconds(at) + links.lifetimeSeconds)
    const trxId = yield* (yield* Ids).transactionId(environment)
    const payment = yield* (yield* PaymentRepository).insert({
      trxId,
      merchantId: merchant.id,
      environment,
      refTrx: request.refTrx,
      amount,
      currency: request.currency,
      description: request.description,
      customerName: request.customerName,
      customerEmail: request.customerEmail,
      ipnUrl: request.ipnUrl,
      successRedirect: request.successRedirect,
      cancelRedirect: request.cancelRedirect,
      allowPaymentMethods: keywords,
      gatewayIds: shown.map((gateway) => gateway.id),
      invoiceId: request.invoiceId ?? null,
      expiresAt
    }, at).pipe(Effect.catchTag("ReferenceHeld", () => Effect.fail(new DuplicateReference({ refTrx: request.refTrx }))))

    const initiated: InitiatedPayment = { payment, paymentUrl: links.linkFor(trxId, toSeconds(expiresAt)), eligible, shown, restricted }
    return initiated
  })
