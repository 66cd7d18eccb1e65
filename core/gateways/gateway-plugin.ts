import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { Environment } from "../shared/environment.js"
import type { SettlementContext, SettlementReportLine } from "./settlement-report.js"
import type { DisputeEvidence, DisputeEvidenceReport, DisputeReport } from "./plugin-disputes.js"
import type { SavedMethodCharge, SavedMethodChargeReport, SavedMethodReport, SaveMethodRequest, TestMethodRequest } from "./plugin-saved-methods.js"
import type { SetupReport, SetupRequest, SetupReturn } from "./plugin-method-setup.js"

/**
 * The plugin API version this core speaks. A plugin declares the version it was written against;
 * the registry refuses one that does not match at start, rather than failing mid-payment.
 */
export const GATEWAY_PLUGIN_API_VERSION = 2

/** What a plugin can do beyond checkout and return. Each defaults to false. */
export interface PluginCapabilities {
  /** Its gateway tells the kit later, at `notifyUrl`: `handleNotification`. */
  readonly notifications: boolean
  /** The kit may ask the gateway how a payment stands: `syncStatus`. */
  readonly statusSync: boolean
  /** Money goes back to the customer through the gateway: `refund`. */
  readonly refunds: boolean
  /** Refunds of part of a payment: without it, only whole payments are refunded to the source. */
  readonly partialRefunds: boolean
  /** It is a payout rail: approved payouts to the destination types it names are sent with `sendPayout`. */
  readonly payouts: boolean
  /** A merchant's evidence on a dispute is sent on to the gateway: `submitDisputeEvidence`. */
  readonly disputeEvidence: boolean
  /**
   * It saves the customer's method at a subscription's checkout (told by `saveMethod` on the
   * checkout context; the method comes back as `savedMethod` on the paid report) and charges it
   * later without the customer: `chargeSaved`. Optionally, `beginSetup` and `handleSetupReturn`
   * replace the method with nothing to pay (plugin-method-setup.ts); a simulator may offer
   * `testMethod`, a saved test method for sandbox triggers (plugin-saved-methods.ts).
   */
  readonly savedMethods: boolean
}

/** The gateway record a call is for: several records may use one plugin with different configs. */
export interface GatewayRef {
  readonly id: number
  readonly code: string
  readonly name: string
}

/**
 * Amounts cross the plugin boundary as exact decimal strings in the currency's own minor digits
 * ("12.50", "1000" for JPY), never as numbers.
 */
export type DecimalString = string

/** What every call carries beside its subject. */
export interface CallTrace {
  /**
   * The W3C trace context of the kit's span for this call, when the host traces: send it as the
   * `traceparent` header of the gateway request, so the gateway's side joins the payment's trace.
   */
  readonly traceparent?: string
}

/** The payment a call is about, as every payment-bound call sees it. */
export interface PaymentAtGateway<Config> extends CallTrace {
  readonly trxId: string
  readonly amount: DecimalString
  readonly currency: string
  readonly environment: Environment
  readonly gateway: GatewayRef
  readonly config: Config
}

/** What a plugin is told when a customer picks its gateway on hosted checkout. */
export interface CheckoutContext<Config> extends PaymentAtGateway<Config> {
  /** The amount as the customer should read it ("12.50"). */
  readonly displayAmount: string
  readonly description: string | null
  readonly merchantName: string
  /** Where the customer comes back: POST or GET with the gateway's fields. */
  readonly returnUrl: string
  /** Where to send the customer who gives up before paying. */
  readonly cancelUrl: string
  /** Where the gateway posts its asynchronous notifications for this gateway record. */
  readonly notifyUrl: string
  /**
   * Present only for a plugin with `savedMethods`, when the payment is a subscription's invoice: set
   * the customer's method up for later off-session charges, and report it once paid.
   */
  readonly saveMethod?: SaveMethodRequest
}

/** Send the customer to the gateway, or show an HTML fragment inside the kit's page (trusted plugin output). */
export type CheckoutStart =
  | { readonly redirect: string; readonly gatewayReference?: string }
  | { readonly html: string; readonly gatewayReference?: string }

/**
 * How the gateway says the payment went. "pending": nothing final yet; "declined": this try failed,
 * and the customer may try again while the checkout link is valid (the core keeps the payment open
 * until then); "cancelled": the customer gave up, which ends the payment.
 */
export type GatewayOutcome = "paid" | "declined" | "cancelled" | "pending"

/** The customer's return, as received: the query and form fields. */
export interface ReturnContext<Config> extends PaymentAtGateway<Config> {
  readonly fields: Readonly<Record<string, string>>
  /** What `beginCheckout` reported as the gateway's own reference, if anything. */
  readonly gatewayReference: string | null
}

/** `verified: false` means the plugin could not check it: the core never trusts it. */
export interface ReturnReport {
  readonly outcome: GatewayOutcome
  readonly verified: boolean
  readonly gatewayReference?: string
  /** With a paid outcome of a checkout told to `saveMethod`: the method now saved. */
  readonly savedMethod?: SavedMethodReport
}

/** A gateway's server-to-server call, as received at `POST /gateways/{gateway_id}/notify`. */
export interface NotificationContext<Config> extends CallTrace {
  readonly rawBody: Uint8Array
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string>>
  readonly config: Config
  /** The environment the gateway record serves this notification in (a record serves one). */
  readonly environment: Environment
  readonly gateway: GatewayRef
}

/** What the kit answers the gateway; 200 with an empty body when the plugin says nothing. */
export interface GatewayReply {
  readonly status: number
  readonly body?: string
  readonly headers?: Readonly<Record<string, string>>
}

export type NotificationReport =
  | {
    readonly trxId: string
    readonly outcome: GatewayOutcome
    readonly amount?: DecimalString
    readonly currency?: string
    readonly gatewayReference?: string
    readonly verified: boolean
    readonly reply?: GatewayReply
    /** As on ReturnReport. */
    readonly savedMethod?: SavedMethodReport
  }
  | { readonly ignore: true; readonly reply?: GatewayReply }
  | { readonly dispute: DisputeReport; readonly reply?: GatewayReply }

export interface SyncContext<Config> extends PaymentAtGateway<Config> {
  readonly gatewayReference: string | null
}

export interface SyncReport {
  readonly outcome: GatewayOutcome
  readonly amount?: DecimalString
  readonly currency?: string
  readonly gatewayReference?: string
  /** As on ReturnReport. */
  readonly savedMethod?: SavedMethodReport
}

/** An off-session charge of a saved method, with the gateway record it was saved through. */
export interface SavedMethodChargeContext<Config> extends SavedMethodCharge, CallTrace {
  readonly environment: Environment
  readonly gateway: GatewayRef
  readonly config: Config
}

/** A saved test method asked of a simulator's gateway record: only ever in sandbox. */
export interface TestMethodContext<Config> extends TestMethodRequest, CallTrace {
  readonly environment: Environment
  readonly gateway: GatewayRef
  readonly config: Config
}

/** A setup-only session (plugin-method-setup.ts) at a gateway record. */
export interface SetupContext<Config> extends SetupRequest, CallTrace {
  readonly environment: Environment
  readonly gateway: GatewayRef
  readonly config: Config
}

/** As a checkout's start: a redirect to the gateway, or an HTML fragment shown inside the kit's page. */
export type SetupStart = CheckoutStart

export interface SetupReturnContext<Config> extends SetupReturn, CallTrace {
  readonly environment: Environment
  readonly gateway: GatewayRef
  readonly config: Config
}

/** `amount` is the part refunded, not the payment's. */
export interface RefundContext<Config> extends PaymentAtGateway<Config> {
  readonly refundTrxId: string
  readonly gatewayReference: string | null
  /** The same on every retry of one refund: the gateway must not pay the customer twice. */
  readonly idempotencyKey: string
}

export type GatewayRefundStatus = "succeeded" | "pending" | "failed"

export interface RefundReport {
  readonly status: GatewayRefundStatus
  readonly gatewayRefundReference?: string
  readonly message?: string
}

/** Where a payout goes, as a rail sees it: the IBAN unsealed (a rail is trusted code, as every plugin is). */
export type PayoutDestinationAtRail =
  | { readonly type: "bank_account"; readonly accountHolder: string; readonly iban: string; readonly bic: string | null }
  | { readonly type: "stripe_account"; readonly accountId: string }

/** An approved payout handed to its rail. */
export interface PayoutContext<Config> extends CallTrace {
  readonly payoutId: string
  readonly merchantId: number
  readonly amount: DecimalString
  readonly currency: string
  readonly environment: Environment
  readonly destination: PayoutDestinationAtRail
  /** The payout's id: the same on every try, so the rail never pays one payout twice. */
  readonly idempotencyKey: string
  /** The config of the plugin's gateway record that serves the payout's currency (docs/plugins.md). */
  readonly config: Config
  readonly gateway: GatewayRef
}

/**
 * How the rail took the payout: `paid` (the money left, `reference` names the transfer), `failed`
 * (it will not leave: `reason`, and the funds go back to the wallet), or `pending` (settled later,
 * by the operator or by a notification or sync).
 */
export interface PayoutReport {
  readonly status: "paid" | "pending" | "failed"
  readonly reference?: string
  readonly reason?: string
}

export type DisputeEvidenceContext<Config> = PaymentAtGateway<Config> & DisputeEvidence

/** The gateway refused or could not be reached. Effect-style plugins fail with it; Promise-style ones throw. */
export class GatewayFailure extends Schema.TaggedError<GatewayFailure>()("GatewayFailure", {
  message: Schema.String,
  retryable: Schema.Boolean
}) {}

/** What an Effect-style plugin fails with when a return or notification does not check out: unverified. */
export class GatewayReturnRejected extends Schema.TaggedError<GatewayReturnRejected>()("GatewayReturnRejected", {
  message: Schema.String
}) {}

/** A gateway record's config the plugin refused; the message is shown to the administrator. */
export class GatewayConfigRejected extends Schema.TaggedError<GatewayConfigRejected>()("GatewayConfigRejected", {
  message: Schema.String
}) {}

/**
 * A plugin method's answer, in either authoring style: a plain value, a Promise of one, or an Effect.
 * An Effect may fail with GatewayFailure, or with GatewayReturnRejected where a report can be unverified.
 */
export type PluginAnswer<A> = A | PromiseLike<A> | Effect.Effect<A, GatewayFailure | GatewayReturnRejected>

/**
 * A gateway plugin, as its author writes it: a plain object, with Promise or Effect methods. Methods
 * are declared with method syntax on purpose: a plugin typed with its own `Config` is then accepted
 * wherever any plugin is (`GatewayPluginDefinition` with the default `unknown`).
 */
export interface GatewayPluginDefinition<Config = unknown> {
  /** Stable identifier gateway records point at, e.g. "stripe-checkout". */
  readonly id: string
  readonly displayName: string
  /** The plugin's own version (semver). */
  readonly version: string
  /** The GATEWAY_PLUGIN_API_VERSION it was written against. */
  readonly apiVersion: number
  /** Currency codes it can serve, or "any". */
  readonly currencies: ReadonlyArray<string> | "any"
  readonly environments: ReadonlyArray<Environment>
  readonly capabilities?: Partial<PluginCapabilities>
  /** Config fields sealed at rest under the master key and never returned by the admin API. */
  readonly secretConfigKeys?: ReadonlyArray<string>
  /** With the `payouts` capability: the payout destination types it pays to ("stripe_account"). */
  readonly payoutDestinationTypes?: ReadonlyArray<string>
  /** Validates a gateway record's config; throws (or fails with GatewayConfigRejected) with the reason. */
  parseConfig(raw: unknown): Config | PromiseLike<Config> | Effect.Effect<Config, GatewayConfigRejected>
  beginCheckout(context: CheckoutContext<Config>): PluginAnswer<CheckoutStart>
  handleReturn(context: ReturnContext<Config>): PluginAnswer<ReturnReport>
  handleNotification?(context: NotificationContext<Config>): PluginAnswer<NotificationReport>
  syncStatus?(context: SyncContext<Config>): PluginAnswer<SyncReport>
  refund?(context: RefundContext<Config>): PluginAnswer<RefundReport>
  /** The gateway's settlement over a period, for reconciliation: optional, a plugin without it is reconciled by upload. */
  settlementReport?(context: SettlementContext<Config>): PluginAnswer<ReadonlyArray<SettlementReportLine>>
  sendPayout?(context: PayoutContext<Config>): PluginAnswer<PayoutReport>
  submitDisputeEvidence?(context: DisputeEvidenceContext<Config>): PluginAnswer<DisputeEvidenceReport>
  /** With `savedMethods`: charges a saved method without the customer (a renewal). */
  chargeSaved?(context: SavedMethodChargeContext<Config>): PluginAnswer<SavedMethodChargeReport>
  /** With `savedMethods`, optional: starts a setup-only session (no money moves) to replace a saved method. */
  beginSetup?(context: SetupContext<Config>): PluginAnswer<SetupStart>
  /** With `beginSetup`: reads the customer's return from a setup session; the method saved, if any. */
  handleSetupReturn?(context: SetupReturnContext<Config>): PluginAnswer<SetupReport>
  /** With `savedMethods`, optional, for simulators: a saved test method of the kind asked (the kit asks only in sandbox). */
  testMethod?(context: TestMethodContext<Config>): PluginAnswer<SavedMethodReport>
}

/** The plugin methods the kit calls, by name: what logs and failures say. */
export type PluginCall =
  | "parseConfig"
  | "beginCheckout"
  | "handleReturn"
  | "handleNotification"
  | "syncStatus"
  | "refund"
  | "settlementReport"
  | "sendPayout"
  | "submitDisputeEvidence"
  | "chargeSaved"
  | "beginSetup"
  | "handleSetupReturn"
  | "testMethod"

/**
 * A plugin call that did not give a usable answer. The core treats them all alike: the customer is
 * offered another method, the gateway is told to retry, the work is tried again later.
 */
export class PluginCallFailed extends Schema.TaggedError<PluginCallFailed>()("PluginCallFailed", {
  plugin: Schema.String,
  call: Schema.String,
  reason: Schema.Literal("failed", "threw", "timed_out", "malformed", "unsupported"),
  message: Schema.String
}) {}

/**
 * A plugin as the core uses it, whatever its authoring style: every call an Effect with a timeout, a
 * checked answer and a log line; config already opened and parsed by the caller.
 */
export interface HostedPlugin {
  readonly id: string
  readonly displayName: string
  readonly version: string
  readonly currencies: ReadonlyArray<string> | "any"
  readonly environments: ReadonlyArray<Environment>
  readonly capabilities: PluginCapabilities
  readonly secretConfigKeys: ReadonlyArray<string>
  readonly parseConfig: (raw: unknown) => Effect.Effect<unknown, GatewayConfigRejected | PluginCallFailed>
  readonly beginCheckout: (context: CheckoutContext<unknown>) => Effect.Effect<CheckoutStart, PluginCallFailed>
  /** A rejected return comes back as `verified: false`, never as a failure. */
  readonly handleReturn: (context: ReturnContext<unknown>) => Effect.Effect<ReturnReport, PluginCallFailed>
  readonly handleNotification: (context: NotificationContext<unknown>) => Effect.Effect<NotificationReport, PluginCallFailed>
  readonly syncStatus: (context: SyncContext<unknown>) => Effect.Effect<SyncReport, PluginCallFailed>
  readonly refund: (context: RefundContext<unknown>) => Effect.Effect<RefundReport, PluginCallFailed>
  /** Absent when the plugin gives no settlement report. */
  readonly settlementReport?: (context: SettlementContext<unknown>) => Effect.Effect<ReadonlyArray<SettlementReportLine>, PluginCallFailed>
  /** Empty unless it has the `payouts` capability. */
  readonly payoutDestinationTypes: ReadonlyArray<string>
  readonly sendPayout: (context: PayoutContext<unknown>) => Effect.Effect<PayoutReport, PluginCallFailed>
  readonly submitDisputeEvidence: (context: DisputeEvidenceContext<unknown>) => Effect.Effect<DisputeEvidenceReport, PluginCallFailed>
  readonly chargeSaved: (context: SavedMethodChargeContext<unknown>) => Effect.Effect<SavedMethodChargeReport, PluginCallFailed>
  /** Whether it replaces a saved method with nothing to pay: `beginSetup` and `handleSetupReturn` then answer. */
  readonly methodSetup: boolean
  readonly beginSetup: (context: SetupContext<unknown>) => Effect.Effect<SetupStart, PluginCallFailed>
  /** A rejected return comes back as `verified: false`, never as a failure. */
  readonly handleSetupReturn: (context: SetupReturnContext<unknown>) => Effect.Effect<SetupReport, PluginCallFailed>
  /** Whether it makes saved test methods: `testMethod` then answers, in sandbox only. */
  readonly testMethods: boolean
  /** Outside sandbox, or without the call: `unsupported`, and the plugin is never asked. */
  readonly testMethod: (context: TestMethodContext<unknown>) => Effect.Effect<SavedMethodReport, PluginCallFailed>
}

export class UnknownGatewayPlugin extends Schema.TaggedError<UnknownGatewayPlugin>()("UnknownGatewayPlugin", {
  plugin: Schema.String
}) {}

/** The plugins registered at startup. */
export class GatewayPlugins extends Context.Tag("merchant-payments/GatewayPlugins")<GatewayPlugins, {
  readonly get: (id: string) => Effect.Effect<HostedPlugin, UnknownGatewayPlugin>
  readonly list: ReadonlyArray<HostedPlugin>
}>() {}
