import { Context, type Effect, Schema } from "effect"
import type { Environment } from "../merchants/environment.js"
import type { Amount } from "../money/amount.js"
import type { Gateway } from "./gateway.js"
import type { PaymentOutcome } from "./payment.js"

/**
 * The plugin API version this core speaks. A plugin declares the version it was written against;
 * the registry refuses one that does not match, rather than failing mid-payment.
 */
export const GATEWAY_PLUGIN_API_VERSION = 1

/** What a plugin is told when a customer picks its gateway on hosted checkout. */
export interface CheckoutRequest {
  readonly trxId: string
  readonly amount: Amount
  readonly currency: string
  /** The amount as the customer should read it, in the currency's own minor digits ("12.50"). */
  readonly displayAmount: string
  readonly description: string | null
  readonly merchantName: string
  readonly environment: Environment
  readonly gateway: Gateway
  /** Where the plugin's page (or the gateway) sends the customer back: POST or GET with its fields. */
  readonly returnUrl: string
  /** Where to send the customer who gives up before paying. */
  readonly cancelUrl: string
}

/** What the hosted page should do next. */
export type CheckoutAction =
  /** Show this HTML fragment inside the kit's page (it is trusted plugin output, not user input). */
  | { readonly _tag: "RenderForm"; readonly html: string }
  /** Send the customer to the gateway's own page. */
  | { readonly _tag: "Redirect"; readonly url: string }

/** The gateway's return or callback, as received: fields from the query and form body. */
export interface GatewayReturn {
  readonly trxId: string
  readonly amount: Amount
  readonly currency: string
  readonly environment: Environment
  readonly gateway: Gateway
  readonly fields: Readonly<Record<string, string>>
}

/** How the gateway says the payment went. The plugin verifies any signature before answering. */
export type GatewayOutcome =
  | Exclude<PaymentOutcome, "expired">
  /** Nothing final yet (an asynchronous gateway): the payment stays pending. */
  | "pending"

/** The gateway refused or could not be reached; `retryable` tells the page whether to offer a retry. */
export class GatewayFailure extends Schema.TaggedError<GatewayFailure>()("GatewayFailure", {
  message: Schema.String,
  retryable: Schema.Boolean
}) {}

/** A return whose signature or fields do not check out: treated as tampering, never as an outcome. */
export class GatewayReturnRejected extends Schema.TaggedError<GatewayReturnRejected>()("GatewayReturnRejected", {
  message: Schema.String
}) {}

export interface GatewayPlugin {
  /** Stable identifier gateway records point at, e.g. "sandbox". */
  readonly id: string
  readonly displayName: string
  /** The plugin's own version (semver). */
  readonly version: string
  /** The GATEWAY_PLUGIN_API_VERSION it was written against. */
  readonly apiVersion: number
  /**
   * Validates a gateway record's `config` for this plugin. Any context-free schema: Schema types are
   * invariant, so `Schema<unknown, unknown>` would refuse every real struct without a cast.
   */
  readonly configSchema: Schema.Schema.AnyNoContext
  /** Currency codes it can serve, or "any". */
  readonly currencies: ReadonlyArray<string> | "any"
  /** The environments it can take payments in: a simulator serves sandbox only, a real gateway both. */
  readonly environments: ReadonlyArray<Environment>
  readonly beginCheckout: (request: CheckoutRequest) => Effect.Effect<CheckoutAction, GatewayFailure>
  readonly handleReturn: (received: GatewayReturn) => Effect.Effect<GatewayOutcome, GatewayReturnRejected | GatewayFailure>
}

export class UnknownGatewayPlugin extends Schema.TaggedError<UnknownGatewayPlugin>()("UnknownGatewayPlugin", {
  plugin: Schema.String
}) {}

/** The plugins registered at startup. */
export class GatewayPlugins extends Context.Tag("merchant-payments/GatewayPlugins")<GatewayPlugins, {
  readonly get: (id: string) => Effect.Effect<GatewayPlugin, UnknownGatewayPlugin>
  readonly list: ReadonlyArray<GatewayPlugin>
}>() {}
