import { Effect, Option, Schema } from "effect"
import {
  GATEWAY_PLUGIN_API_VERSION,
  GatewayFailure,
  type GatewayOutcome,
  type GatewayPlugin,
  GatewayReturnRejected
} from "../../../core/payments/gateway-plugin.js"
import { renderSandboxForm } from "./sandbox-form.js"
import { isSandboxOutcome, outcomeSignatureMatches, type SandboxOutcome, signOutcome } from "./sandbox-signature.js"

export const SANDBOX_PLUGIN_ID = "sandbox"

/** A gateway record's settings: only a label to tell several sandbox gateways apart. */
export const SandboxConfig = Schema.Struct({
  label: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)))
})

export interface SandboxPluginOptions {
  /** Keys the outcome signatures; at least 32 bytes so a forged return is out of reach. */
  readonly secret: Uint8Array
}

const OUTCOMES: Readonly<Record<SandboxOutcome, GatewayOutcome>> = {
  paid: "paid",
  declined: "declined",
  cancelled: "cancelled"
}

/**
 * No money moves here, so the simulator serves sandbox payments only: a sandbox gateway left
 * active in production must not let anyone mark a real payment paid.
 */
const PRODUCTION_REFUSED = "The sandbox simulator only serves sandbox payments."

const rejected = (message: string) => Effect.fail(new GatewayReturnRejected({ message }))

/** The built-in simulator: the customer picks the outcome on a signed form posted back to the kit. */
export const makeSandboxPlugin = (options: SandboxPluginOptions): GatewayPlugin => {
  if (options.secret.length < 32) throw new RangeError("the sandbox plugin secret must be at least 32 bytes")
  const secret = Uint8Array.from(options.secret)
  return {
    id: SANDBOX_PLUGIN_ID,
    displayName: "Sandbox simulator",
    version: "1.0.0",
    apiVersion: GATEWAY_PLUGIN_API_VERSION,
    configSchema: SandboxConfig,
    currencies: "any",
    environments: ["sandbox"],
    beginCheckout: (request) => {
      if (request.environment !== "sandbox") return Effect.fail(new GatewayFailure({ message: PRODUCTION_REFUSED, retryable: false }))
      const config = Schema.decodeUnknownOption(SandboxConfig)(request.gateway.config)
      const html = renderSandboxForm({
        trxId: request.trxId,
        displayAmount: request.displayAmount,
        currency: request.currency,
        returnUrl: request.returnUrl,
        label: Option.getOrUndefined(Option.flatMapNullable(config, (c) => c.label)),
        signatureFor: (outcome) => signOutcome(secret, { trxId: request.trxId, outcome, amount: request.amount, currency: request.currency })
      })
      return Effect.succeed({ _tag: "RenderForm", html })
    },
    handleReturn: (received) => {
      if (received.environment !== "sandbox") return rejected(PRODUCTION_REFUSED)
      const { outcome, signature, trx_id: trxId } = received.fields
      if (trxId === undefined || outcome === undefined || signature === undefined) {
        return rejected("The sandbox return is missing its trx_id, outcome or signature.")
      }
      if (trxId !== received.trxId) return rejected("The sandbox return names a different payment.")
      if (!isSandboxOutcome(outcome)) return rejected("The sandbox return carries an unknown outcome.")
      // Checked against the payment's own amount and currency, never against values the browser sent.
      const facts = { trxId: received.trxId, outcome, amount: received.amount, currency: received.currency }
      if (!outcomeSignatureMatches(secret, facts, signature)) return rejected("The sandbox return signature does not match.")
      return Effect.succeed(OUTCOMES[outcome])
    }
  }
}
