import * as Effect from "effect/Effect"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import type { AmountInput } from "../money/parse.js"
import { CheckoutConfigCache } from "../payments/checkout-config.js"
import { checkoutTerms, initiatePayment } from "../payments/initiate-payment.js"
import { simulatePayment, type SimulatedOutcome } from "../payments/verify-payment.js"
import { ValidationFailed } from "../shared/validation.js"
import { Ids } from "../signing/random-ids.js"

/** What a trigger made, as the answer names it: `payment` (a trx_id), `refund`, `subscription`, `test_clock`, `payout`, `dispute`. */
export interface TriggeredObject {
  readonly type: "payment" | "refund" | "subscription" | "test_clock" | "payout" | "dispute"
  readonly id: string
}

/** What every recipe is given: whose sandbox, and where its payment and subscription events go (the empty string: no ipn target). */
export interface TriggerRun {
  readonly caller: MerchantScope
  readonly ipnUrl: string
}

/** Small and whole, so it is valid in every currency's minor unit (JPY's included). */
export const TRIGGER_AMOUNT: AmountInput = { kind: "string", value: "10" }
/** Refunds and payouts take this much of a triggered payment's net: a part, so the fee never leaves it short. */
export const TRIGGER_PART: AmountInput = { kind: "string", value: "1" }
/** A triggered plan change's new amount. */
export const TRIGGER_NEW_AMOUNT: AmountInput = { kind: "string", value: "12" }

/** Addresses a triggered checkout would send a customer back to; no customer ever follows them. */
export const REDIRECT_ADDRESSES = { successRedirect: "https://example.com/trigger/success", cancelRedirect: "https://example.com/trigger/cancel" }

/**
 * The first of the merchant's currencies a sandbox checkout can be made in (enabled, an active
 * sandbox wallet, a gateway served in sandbox), by the checkout terms every payment meets.
 */
export const triggerCurrency = (caller: MerchantScope) =>
  Effect.gen(function*() {
    const { currencies } = yield* (yield* CheckoutConfigCache).forMerchant(caller.merchant.id)
    for (const currency of currencies) {
      const terms = yield* Effect.option(checkoutTerms(caller, currency, TRIGGER_AMOUNT))
      if (terms._tag === "Some" && terms.value.eligible.length > 0) return currency
    }
    return yield* ValidationFailed.field(
      "event",
      "A trigger needs a currency the merchant can take sandbox payments in: an enabled currency with an active sandbox wallet and an active sandbox gateway."
    )
  })

/** A unique reference of the merchant's, naming where it came from. */
export const triggerReference = (prefix: string) => Effect.map(Effect.flatMap(Ids, (ids) => ids.uuid), (uuid) => `${prefix}_${uuid.replaceAll("-", "")}`)

/** A pending payment, begun as the initiate endpoint begins one. */
export const startPayment = (run: TriggerRun, currency: string) =>
  Effect.gen(function*() {
    const initiated = yield* initiatePayment(run.caller, {
      amount: TRIGGER_AMOUNT,
      currency,
      refTrx: yield* triggerReference("trigger"),
      ...REDIRECT_ADDRESSES,
      ipnUrl: run.ipnUrl,
      description: "Triggered sandbox payment",
      customerName: "Sandbox Trigger",
      customerEmail: "trigger@example.com",
      keywords: []
    })
    return initiated.payment
  })

/** A payment ended as the sandbox simulator ends one (the same completion path as a gateway's word). */
export const endedPayment = (run: TriggerRun, currency: string, outcome: SimulatedOutcome) =>
  Effect.flatMap(startPayment(run, currency), (payment) => simulatePayment(run.caller, payment.trxId, outcome))

