import type { Environment } from "../../core/shared/environment.js"
import type { CheckoutStart, GatewayOutcome } from "../../core/gateways/gateway-plugin.js"

/** A payment as far as the gateway got it: what the plugin's beginCheckout answered, and where to return. */
export interface CheckoutAtGateway {
  readonly trxId: string
  /** The exact decimal amount the plugin was given ("12.50"). */
  readonly amount: string
  readonly currency: string
  readonly environment: Environment
  readonly start: CheckoutStart
  /** For a form the kit rendered: the whole page, as the customer's browser got it. */
  readonly page: string | undefined
  readonly returnUrl: string
  /** What beginCheckout reported as the gateway's reference, if anything. */
  readonly gatewayReference: string | null
}

/** What the customer does at the gateway for one outcome. */
export type CustomerAction =
  /** The gateway sends the customer back to returnUrl with these fields. */
  | { readonly returnFields: Readonly<Record<string, string>> }
  /** The customer gives up at the gateway and comes back through the kit's cancelUrl. */
  | { readonly cancels: true }

/** A gateway's server-to-server call, exactly as it would arrive at notifyUrl. */
export interface GatewayNotification {
  readonly rawBody: Uint8Array
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>
}

/**
 * The plugin author's side of the conformance run: how to play the gateway and its customer.
 * Everything is optional past `config` and `customer`; cases that need a missing piece are skipped
 * (and say so), never passed silently.
 */
export interface GatewayDriver {
  /** A gateway record's config for the plugin, as an administrator would send it. */
  readonly config: Readonly<Record<string, unknown>>
  /** The payments' currency (default USD, or the plugin's first). */
  readonly currency?: string
  /** The payments' environment (default sandbox when the plugin serves it). */
  readonly environment?: Environment
  /**
   * The customer at the gateway choosing `outcome`: makes the gateway record it and says what the
   * customer's browser does next. Undefined when the gateway cannot end a payment that way.
   */
  readonly customer: (checkout: CheckoutAtGateway, outcome: Exclude<GatewayOutcome, "pending">) => Promise<CustomerAction | undefined>
  /**
   * The gateway's genuine, correctly signed notification that the payment ended with `outcome`
   * (reporting `amount` instead of the payment's own when given). Must not change the gateway's state.
   */
  readonly notification?: (
    checkout: CheckoutAtGateway,
    outcome: Exclude<GatewayOutcome, "pending">,
    options?: { readonly amount?: string }
  ) => Promise<GatewayNotification>
  /** The same notification with its signature broken the way a forger's would be. */
  readonly misSign?: (notification: GatewayNotification) => GatewayNotification
  /** Refunds the gateway has received for a payment, for the refund round trip. */
  readonly refundsReceived?: (checkout: CheckoutAtGateway) => Promise<ReadonlyArray<{ readonly idempotencyKey: string | undefined }>>
  /**
   * With `savedMethods`: the customer pays a checkout that was told to save the method, with a method
   * whose later off-session charges are paid ("chargeable") or declined ("declining"); answers the
   * fields the gateway sends the customer back with.
   */
  readonly savingCustomer?: (checkout: CheckoutAtGateway, kind: "chargeable" | "declining") => Promise<Readonly<Record<string, string>> | undefined>
}
