import type { Environment } from "../../api-types.js"
import { sha256Hex } from "../../../core/signing/hmac.js"
import { verifyWebhook, type WebhookCheck, webhookKindOf, type WebhookKind } from "../../../core/webhooks/verify-webhook.js"
import { bodyVariants } from "./body-variants.js"

/**
 * Why a pasted webhook delivery does or does not verify. The verdict is always the kit's own
 * `verifyWebhook` (the rule the sender signs by and the client checks by); this only asks it again
 * with the likely mistakes undone (a changed body, the other secret, an old timestamp) and names the
 * one that makes it verify. Secrets are used, never shown: only digests of the signed bytes are.
 */

export type SignatureForm = "X-Signature" | "Standard Webhooks"

export interface PastedDelivery {
  readonly rawBody: Uint8Array
  /** Header names in lower case. */
  readonly headers: ReadonlyMap<string, string>
  readonly webhookSecret: string | undefined
  readonly clientSecret: string | undefined
  readonly nowSeconds: number
  readonly toleranceSeconds: number
  /** When given, X-Environment must name it, as the client's check requires. */
  readonly expectedEnvironment: Environment | undefined
}

export interface FormFinding {
  readonly form: SignatureForm
  readonly verified: boolean
  /** The kit's reason, when it does not verify. */
  readonly reason: Exclude<WebhookCheck, { valid: true }>["reason"] | undefined
  /** What the HMAC is computed over. */
  readonly signedContent: string
  readonly why: ReadonlyArray<string>
}

export interface Diagnosis {
  readonly verified: boolean
  readonly kind: WebhookKind | undefined
  /** X-Environment as sent: shown, and checked only against `expectedEnvironment`. */
  readonly environment: string | undefined
  readonly body: { readonly bytes: number; readonly sha256: string }
  readonly findings: ReadonlyArray<FormFinding>
  /** What stops any check: no signature header, a body that is not a JSON object. */
  readonly problems: ReadonlyArray<string>
}

interface Secrets {
  readonly webhookSecret: string
  readonly clientSecret: string
}

const SECRET_NAME = { webhookSecret: "webhook secret", clientSecret: "client secret" } as const
const FLAG = { webhookSecret: "--secret or WEBHOOK_SECRET", clientSecret: "--client-secret or CLIENT_SECRET" } as const

const neededSecret = (kind: WebhookKind): keyof Secrets => (kind === "refund" ? "clientSecret" : "webhookSecret")

const digest = (bytes: Uint8Array) => `${bytes.length} bytes, sha256 ${sha256Hex(bytes)}`

export const diagnoseDelivery = (delivery: PastedDelivery): Diagnosis => {
  const header = (name: string) => delivery.headers.get(name)
  const body = { bytes: delivery.rawBody.length, sha256: sha256Hex(delivery.rawBody) }
  const kind = webhookKindOf(delivery.rawBody)
  const environment = header("x-environment")
  const forms: ReadonlyArray<SignatureForm> = [
    ...(header("x-signature") ? ["X-Signature" as const] : []),
    ...(header("webhook-signature") ? ["Standard Webhooks" as const] : [])
  ]
  if (forms.length === 0) {
    const given = [...delivery.headers.keys()]
    return {
      verified: false, kind, environment, body, findings: [],
      problems: [`no X-Signature or webhook-signature header: give the delivery's headers with --header "X-Signature: ..." or --headers-file (headers given: ${given.length === 0 ? "none" : given.join(", ")}).`]
    }
  }
  if (kind === undefined) {
    return {
      verified: false, kind, environment, body, findings: [],
      problems: [`the body is not a JSON object (${digest(delivery.rawBody)}): paste the body exactly as received, without its headers.`]
    }
  }

  const check = (form: SignatureForm, secrets: Secrets, rawBody: string | Uint8Array, nowSeconds = delivery.nowSeconds) =>
    verifyWebhook({
      ...secrets,
      rawBody,
      signature: form === "X-Signature" ? header("x-signature") : undefined,
      ...(form === "Standard Webhooks"
        ? { standard: { id: header("webhook-id"), timestamp: header("webhook-timestamp"), signature: header("webhook-signature"), nowSeconds, toleranceSeconds: delivery.toleranceSeconds } }
        : {}),
      environmentHeader: header("x-environment"),
      ...(delivery.expectedEnvironment !== undefined ? { expectedEnvironment: delivery.expectedEnvironment } : {})
    })

  const given: Secrets = { webhookSecret: delivery.webhookSecret ?? "", clientSecret: delivery.clientSecret ?? "" }
  const needed = neededSecret(kind)

  /** Why the signature does not match: the body changed, the secrets are the other way round, or neither. */
  const mismatch = (form: SignatureForm, nowSeconds: number): ReadonlyArray<string> => {
    const why: Array<string> = []
    if (delivery[needed] === undefined) why.push(`a ${kind} event is signed with the ${SECRET_NAME[needed]} (spec 6.3: refund events with the client secret, every other with the webhook secret), and none was given: pass ${FLAG[needed]}.`)
    const text = Buffer.from(delivery.rawBody).toString("utf8")
    const variants = bodyVariants(text)
    const changed = variants.find((variant) => check(form, given, variant.body, nowSeconds).valid)
    if (changed !== undefined) {
      why.push(`the body changed: ${changed.change}. The signed body is ${digest(Buffer.from(changed.body, "utf8"))}; verify the raw bytes as received, before any parsing.`)
      return why
    }
    const alternatives = (["webhookSecret", "clientSecret"] as const).flatMap((name) =>
      delivery[name] ? [{ name, secrets: { webhookSecret: delivery[name], clientSecret: delivery[name] } }] : [])
    const other = alternatives.find((alternative) => alternative.name !== needed && check(form, alternative.secrets, delivery.rawBody, nowSeconds).valid)
    if (other !== undefined) {
      why.push(`wrong secret kind: it verifies with what was given as the ${SECRET_NAME[other.name]}, but a ${kind} event is signed with the ${SECRET_NAME[needed]} (spec 6.3). The two are swapped, or ${FLAG[other.name]} holds the ${SECRET_NAME[needed]}.`)
      return why
    }
    if (delivery[needed] !== undefined) {
      why.push(`the signature does not match these bytes with the ${SECRET_NAME[needed]}: the secret is another environment's (sandbox or production) or an older one, or the body is not the bytes received. ` +
        `Tried the body with ${variants.length === 0 ? "no changes to undo" : `each of these undone: ${variants.map((variant) => variant.change).join("; ")}`}${alternatives.length > 1 ? ", and the other secret" : ""}.`)
    }
    return why
  }

  const explain = (form: SignatureForm, result: Exclude<WebhookCheck, { valid: true }>): ReadonlyArray<string> => {
    switch (result.reason) {
      case "missing_signature": {
        const missing = ["webhook-id", "webhook-timestamp"].filter((name) => !header(name))
        return [`webhook-signature is there but ${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} missing: Standard Webhooks signs "id.timestamp.body".`]
      }
      case "stale_timestamp": {
        const text = header("webhook-timestamp") ?? ""
        if (!/^\d{1,12}$/.test(text)) return [`webhook-timestamp ${JSON.stringify(text)} is not a time in Unix seconds.`]
        const sent = Number(text)
        const age = delivery.nowSeconds - sent
        const when = age >= 0 ? `${age} s old` : `${-age} s in the future (is this machine's clock right?)`
        const why = [`timestamp too old: webhook-timestamp ${text} (${new Date(sent * 1000).toISOString()}) is ${when}, past the tolerance of ${delivery.toleranceSeconds} s, so a captured delivery cannot be replayed.`]
        return check(form, given, delivery.rawBody, sent).valid
          ? [...why, `The signature itself matches: to check an old delivery, pass --tolerance ${Math.abs(age) + 60}.`]
          : [...why, ...mismatch(form, sent)]
      }
      case "environment_mismatch":
        return [`the signature matches, but X-Environment is ${JSON.stringify(header("x-environment") ?? "(missing)")} where ${delivery.expectedEnvironment} was expected: a sandbox event must never pass for a production one.`]
      default:
        return mismatch(form, delivery.nowSeconds)
    }
  }

  const findings = forms.map((form): FormFinding => {
    const result = check(form, given, delivery.rawBody)
    const signedContent = form === "X-Signature"
      ? `HMAC-SHA256 of the body alone: ${digest(delivery.rawBody)}`
      : `HMAC-SHA256 of ${JSON.stringify(`${header("webhook-id") ?? ""}.${header("webhook-timestamp") ?? ""}.`)} followed by the body: ${digest(delivery.rawBody)}`
    return result.valid
      ? { form, verified: true, reason: undefined, signedContent, why: [`verified: a ${kind} event, signed with the ${SECRET_NAME[needed]}${form === "Standard Webhooks" && kind === "refund" ? " (or the webhook secret)" : ""}.`] }
      : { form, verified: false, reason: result.reason, signedContent, why: explain(form, result) }
  })
  return { verified: findings.every((finding) => finding.verified), kind, environment, body, findings, problems: [] }
}
