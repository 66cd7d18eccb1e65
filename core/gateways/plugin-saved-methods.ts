/** The plugin API's part in saved payment methods: saving one at checkout, charging it later. */

/** What a checkout that should save the customer's method tells the plugin. */
export interface SaveMethodRequest {
  /** Off-session: the kit will charge it later without the customer present (renewals). */
  readonly usage: "off_session"
  readonly customerEmail: string | null
  readonly customerName: string | null
}

/**
 * A method the gateway saved: `reference` is what `chargeSaved` is later given (sealed at rest under
 * the master key, never shown); the rest is what the customer and merchant are shown.
 */
export interface SavedMethodReport {
  /** The gateway's reusable reference (for Stripe, "cus_...|pm_..."). */
  readonly reference: string
  /** Lower-case network name: "visa", "mastercard", "amex", or "card" when unknown. */
  readonly brand: string
  /** The last four digits. */
  readonly last4: string
  readonly expMonth: number
  readonly expYear: number
}

/**
 * A simulator's saved test method, made with no customer and no money moving (sandbox only; optional
 * with `savedMethods`): so a sandbox trigger can reach the renewal branch it names through the real
 * renewal code. `declines`: every off-session charge of it is declined softly.
 */
export interface TestMethodRequest {
  readonly kind: "declines"
  /** Unique to this request: names the method, so each one counts alone at a simulated issuer. */
  readonly testId: string
}

/** An off-session charge of a saved method. */
export interface SavedMethodCharge {
  /** The reference the gateway reported when the method was saved. */
  readonly method: string
  /** Exact decimal string in the currency's own digits, as every amount at the plugin boundary. */
  readonly amount: string
  readonly currency: string
  /** The kit's own reference for what is charged (the invoice's reference). */
  readonly reference: string
  /** The same on every retry of one attempt: the gateway must never charge one attempt twice. */
  readonly idempotencyKey: string
}

/**
 * How an off-session charge went. `paid`: `gatewayReference` names the charge. `declined`: a soft
 * decline, worth trying again later. `hard_declined`: the method will not work again (lost, stolen,
 * closed). `authentication_required`: the bank wants the customer present; no retry helps until
 * they act. `message` is the gateway's words, shown to the merchant.
 */
export type SavedMethodChargeReport =
  | { readonly status: "paid"; readonly gatewayReference: string; readonly message?: string }
  | { readonly status: "declined" | "hard_declined" | "authentication_required"; readonly message: string; readonly gatewayReference?: string }
