import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import {
  GATEWAY_PLUGIN_API_VERSION,
  GatewayConfigRejected,
  GatewayFailure,
  type GatewayPluginDefinition,
  type ReturnReport
} from "../../../core/gateways/gateway-plugin.js"
import { isSandboxCard, makeSandboxIssuer, savedCardReport } from "./sandbox-cards.js"
import { renderSandboxForm } from "./sandbox-form.js"
import { renderSandboxSetupForm } from "./sandbox-setup-form.js"
import { isSandboxOutcome, outcomeSignatureMatches, setupSignatureMatches, signOutcome, signSetup } from "./sandbox-signature.js"

export const SANDBOX_PLUGIN_ID = "sandbox"

/** A gateway record's settings: only a label to tell several sandbox gateways apart. */
export const SandboxConfig = Schema.Struct({
  label: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)))
})
export type SandboxConfig = typeof SandboxConfig.Type

export interface SandboxPluginOptions {
  /** Keys the outcome signatures; at least 32 bytes so a forged return is out of reach. */
  readonly secret: Uint8Array
  /** Also accepted on a return, never used to sign: forms rendered before a master key rotation. */
  readonly previousSecret?: Uint8Array | undefined
}

/**
 * No money moves here, so the simulator serves sandbox payments only: a sandbox gateway left
 * active in production must not let anyone mark a real payment paid.
 */
const PRODUCTION_REFUSED = "The sandbox simulator only serves sandbox payments."

const unverified: ReturnReport = { outcome: "pending", verified: false }

// Schema's own wording ("Expected string, actual 1") inside a sentence, so every answer reads alike.
const issueText = (issue: ParseResult.ArrayFormatterIssue) =>
  issue.path.length === 0
    ? `The config is invalid: ${issue.message}.`
    : `The config field ${issue.path.map(String).join(".")} is invalid: ${issue.message}.`

/** Unknown keys are refused rather than dropped, so an administrator's typo is reported, not lost. */
const parseSandboxConfig = (raw: unknown) =>
  Schema.decodeUnknown(SandboxConfig)(raw, { errors: "all", onExcessProperty: "error" }).pipe(
    Effect.mapError((error) => new GatewayConfigRejected({ message: ParseResult.ArrayFormatter.formatErrorSync(error).map(issueText).join(" ") }))
  )

/**
 * The built-in simulator: the customer picks the outcome on a signed form posted back to the kit.
 * Refunds "reach the card" at once, so the refund outbox can be watched end to end in sandbox.
 */
export const makeSandboxPlugin = (options: SandboxPluginOptions): GatewayPluginDefinition<SandboxConfig> => {
  if (options.secret.length < 32) throw new RangeError("the sandbox plugin secret must be at least 32 bytes")
  const secret = Uint8Array.from(options.secret)
  const accepted = options.previousSecret === undefined ? [secret] : [secret, Uint8Array.from(options.previousSecret)]
  const issuer = makeSandboxIssuer()
  return {
    id: SANDBOX_PLUGIN_ID,
    displayName: "Sandbox simulator",
    version: "2.0.0",
    apiVersion: GATEWAY_PLUGIN_API_VERSION,
    currencies: "any",
    environments: ["sandbox"],
    capabilities: { refunds: true, partialRefunds: true, disputeEvidence: true, savedMethods: true },
    parseConfig: parseSandboxConfig,
    beginCheckout: (context) => {
      if (context.environment !== "sandbox") return Effect.fail(new GatewayFailure({ message: PRODUCTION_REFUSED, retryable: false }))
      const html = renderSandboxForm({
        trxId: context.trxId,
        displayAmount: context.displayAmount,
        currency: context.currency,
        returnUrl: context.returnUrl,
        label: context.config.label,
        signatureFor: (outcome) => signOutcome(secret, { trxId: context.trxId, outcome, amount: context.amount, currency: context.currency }),
        cardSignatureFor: context.saveMethod === undefined
          ? undefined
          : (card) => signOutcome(secret, { trxId: context.trxId, outcome: "paid", amount: context.amount, currency: context.currency, card })
      })
      return Effect.succeed({ html })
    },
    handleReturn: (context) => {
      if (context.environment !== "sandbox") return Effect.succeed(unverified)
      const { card, outcome, signature, trx_id: trxId } = context.fields
      if (trxId !== context.trxId || outcome === undefined || signature === undefined || !isSandboxOutcome(outcome)) {
        return Effect.succeed(unverified)
      }
      if (card !== undefined && (outcome !== "paid" || !isSandboxCard(card))) return Effect.succeed(unverified)
      // Checked against the payment's own amount and currency, never against values the browser sent.
      const facts = { trxId: context.trxId, outcome, amount: context.amount, currency: context.currency, ...(card === undefined ? {} : { card }) }
      if (!accepted.some((key) => outcomeSignatureMatches(key, facts, signature))) return Effect.succeed(unverified)
      return Effect.succeed(card === undefined ? { outcome, verified: true } : { outcome, verified: true, savedMethod: savedCardReport(card, context.trxId) })
    },
    refund: (context) =>
      context.environment !== "sandbox"
        ? Effect.fail(new GatewayFailure({ message: PRODUCTION_REFUSED, retryable: false }))
        : Effect.succeed({ status: "succeeded" as const, gatewayRefundReference: `sandbox-refund-${context.refundTrxId}` }),
    // The simulated network takes any evidence on a sandbox dispute; the operator then closes it won or lost.
    submitDisputeEvidence: (context) =>
      context.environment === "sandbox"
        ? Effect.succeed({ status: "submitted" as const })
        : Effect.succeed({ status: "refused" as const, message: PRODUCTION_REFUSED }),
    // Saved test cards answer by their kind (sandbox-cards.ts): paid, declined, hard declined, or authentication.
    chargeSaved: (context) =>
      context.environment !== "sandbox"
        ? Effect.fail(new GatewayFailure({ message: PRODUCTION_REFUSED, retryable: false }))
        : Effect.succeed(issuer.charge(context.method, context.idempotencyKey)),
    // A new test card with nothing to pay: the checkout's cards, each on its own signed form.
    beginSetup: (context) =>
      context.environment !== "sandbox"
        ? Effect.fail(new GatewayFailure({ message: PRODUCTION_REFUSED, retryable: false }))
        : Effect.succeed({
          html: renderSandboxSetupForm({
            setupId: context.setupId,
            returnUrl: context.returnUrl,
            label: context.config.label,
            savedSignatureFor: (card) => signSetup(secret, { setupId: context.setupId, outcome: "saved", card }),
            cancelSignature: signSetup(secret, { setupId: context.setupId, outcome: "cancelled" })
          })
        }),
    handleSetupReturn: (context) => {
      const refused = Effect.succeed({ outcome: "pending" as const, verified: false })
      if (context.environment !== "sandbox") return refused
      const { card, outcome, setup_id: setupId, signature } = context.fields
      if (setupId !== context.setupId || signature === undefined || (outcome !== "saved" && outcome !== "cancelled")) return refused
      if (outcome === "saved" ? card === undefined || !isSandboxCard(card) : card !== undefined) return refused
      const facts = { setupId: context.setupId, outcome: outcome === "saved" ? "saved" as const : "cancelled" as const, ...(card === undefined ? {} : { card }) }
      if (!accepted.some((key) => setupSignatureMatches(key, facts, signature))) return refused
      // The reference names the setup, not a payment: each saving counts alone at the simulated issuer.
      return Effect.succeed(outcome === "saved" && card !== undefined && isSandboxCard(card)
        ? { outcome: "saved" as const, verified: true, savedMethod: savedCardReport(card, `SETUP-${context.setupId}`) }
        : { outcome: "cancelled" as const, verified: true })
    },
    // A saved "Declines" card with no checkout, for the invoice.payment_failed trigger; the request's id keeps it apart at the issuer.
    testMethod: (context) =>
      context.environment !== "sandbox"
        ? Effect.fail(new GatewayFailure({ message: PRODUCTION_REFUSED, retryable: false }))
        : Effect.succeed(savedCardReport("decline", `TEST-${context.testId}`))
  }
}
