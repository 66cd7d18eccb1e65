import type { SavedMethodReport } from "./plugin-saved-methods.js"

/**
 * The plugin API's setup-only flow (part of `savedMethods`, optional): the customer gives a method to
 * keep for renewals with nothing to pay, and no money moves. A plugin offers it with both
 * `beginSetup` and `handleSetupReturn`; without them the kit changes a method only at a payment.
 * Their contexts (with the gateway record, config and trace) are composed in gateway-plugin.ts.
 */

/** What a plugin is told when a customer starts replacing a subscription's saved method. */
export interface SetupRequest {
  /** The kit's reference of this setup: echo it back and check it on the return. */
  readonly setupId: string
  /** The subscription's currency (Stripe's setup mode wants one to pick the methods it offers). */
  readonly currency: string
  readonly merchantName: string
  readonly customerEmail: string
  readonly customerName: string | null
  /** The reference of the method it replaces, saved through this gateway (for Stripe, its Customer). */
  readonly currentMethod: string | null
  /** Where the customer comes back: POST or GET with the gateway's fields. */
  readonly returnUrl: string
  /** Where to send the customer who gives up. */
  readonly cancelUrl: string
}

/** The customer's return from a setup session, as received. */
export interface SetupReturn {
  readonly setupId: string
  readonly fields: Readonly<Record<string, string>>
  /** What `beginSetup` reported as the gateway's own reference, if anything. */
  readonly gatewayReference: string | null
}

/**
 * How the setup went: `saved` with the method (which then replaces the subscription's), `cancelled`
 * (the customer gave up), `pending` (nothing final). `verified: false`: the kit trusts none of it.
 */
export type SetupReport =
  | { readonly outcome: "saved"; readonly verified: boolean; readonly savedMethod: SavedMethodReport }
  | { readonly outcome: "cancelled" | "pending"; readonly verified: boolean }
