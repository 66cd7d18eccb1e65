import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { CredentialRepository, type StoredCredentials } from "../merchants/credentials.js"
import { MerchantRepository } from "../merchants/merchant-repository.js"
import { realNow } from "../shared/real-clock.js"
import { SecretBox } from "../signing/secret-box.js"
import { signStandardWebhook } from "../signing/standard-webhook-signature.js"
import { signWebhook } from "../signing/webhook-signature.js"
import type { WebhookDelivery } from "./delivery.js"
import {
  DEFAULT_IPN_JSON_STYLE,
  DEFAULT_IPN_SIGNATURE_FORMAT,
  type IpnJsonStyle,
  type IpnSignatureFormat,
  ipnBody,
  ipnSignatureHeader
} from "./ipn-compatibility.js"

/** What signing a delivery reads of it: an outbox row, or a logged event streamed to a listener. */
export type SignedEvent = Pick<WebhookDelivery, "id" | "merchantId" | "environment" | "body" | "signingSecret">

/**
 * Secrets opened before, per box and by their sealed text: every attempt to an endpoint signs with
 * the same few secrets, and opening one (AES-GCM) cost more than the rest of signing. Keyed on the
 * sealed text, so a rotated secret, sealed anew, is opened afresh; a box (a master key) has its
 * own. Bounded: past the cap the oldest entry goes.
 */
const openedSecrets = new WeakMap<object, Map<string, string>>()
export const OPENED_SECRETS_MAX = 1024

const openCached = (box: SecretBox["Type"], sealed: string): string | undefined => {
  let opened = openedSecrets.get(box)
  if (opened === undefined) {
    opened = new Map()
    openedSecrets.set(box, opened)
  }
  const known = opened.get(sealed)
  if (known !== undefined) return known
  const secret = Either.getOrUndefined(box.open(sealed))
  if (secret === undefined) return undefined
  if (opened.size >= OPENED_SECRETS_MAX) opened.delete(opened.keys().next().value!)
  opened.set(sealed, secret)
  return secret
}

/** What signing an event reads of the store: its merchant's live credential sets and receiver spelling. */
export interface SigningInputs {
  readonly sets: ReadonlyArray<StoredCredentials>
  readonly signatureFormat: IpnSignatureFormat
  readonly jsonStyle: IpnJsonStyle
}

/**
 * The signing inputs of several events, read in two statements whatever their number (a dispatcher
 * reads them once per claim, not once per attempt), as a lookup by event. Read at each attempt, so
 * a merchant who changes the spelling gets it on retries and redeliveries of events already queued,
 * which is how it recovers the ones its receiver refused; a merchant no longer found gets the
 * contract's spelling.
 */
export const signingInputsOf = (events: ReadonlyArray<SignedEvent>) =>
  Effect.gen(function*() {
    const merchantIds = [...new Set(events.map((event) => event.merchantId))]
    const sets = yield* (yield* CredentialRepository).liveSetsOf(merchantIds, yield* realNow)
    const merchants = new Map((yield* (yield* MerchantRepository).findByIds(merchantIds)).map((merchant) => [merchant.id, merchant]))
    return (event: SignedEvent): SigningInputs => {
      const merchant = merchants.get(event.merchantId)
      return {
        sets: sets.filter((set) => set.merchantId === event.merchantId && set.environment === event.environment),
        signatureFormat: merchant?.ipnSignatureFormat ?? DEFAULT_IPN_SIGNATURE_FORMAT,
        jsonStyle: merchant?.ipnJsonStyle ?? DEFAULT_IPN_JSON_STYLE
      }
    }
  })

/** One event's signing inputs. */
export const signingInputs = (event: SignedEvent) => Effect.map(signingInputsOf([event]), (of) => of(event))

/**
 * The secrets that sign this delivery. X-Signature: the current set's secret of the delivery's kind,
 * the environment's webhook secret, or its API secret (refunds, spec 6.3). The Standard Webhooks
 * header: that secret, then, for a refund, the webhook secret too (a receiver holding one secret per
 * endpoint verifies every kind), then the same of each replaced set still in its overlap, so a
 * receiver still on the old secret accepts it.
 */
const signingSecrets = (box: SecretBox["Type"], delivery: SignedEvent, sets: SigningInputs["sets"]) => {
  const open = (sealed: string) => openCached(box, sealed)
  const kind = sets.map((set) => open(delivery.signingSecret === "webhook_secret" ? set.sealedWebhookSecret : set.sealedClientSecret))
  const current = kind[0]
  // Without the current secret nothing is sent: X-Signature must never fall back to a replaced one.
  if (current === undefined) return undefined
  const standard = sets.flatMap((set, index) =>
    delivery.signingSecret === "webhook_secret" ? [kind[index]] : [kind[index], open(set.sealedWebhookSecret)]
  )
  return { current, standard: [...new Set(standard.filter((secret) => secret !== undefined))] }
}

/**
 * The request of one attempt, signed at send time over the exact bytes sent: the contract's
 * X-Signature (the body alone) with the current secret only, in the merchant's format, and beside it
 * Standard Webhooks' (id, this attempt's time, body) with every secret above, space-separated as that
 * specification allows. Undefined when the merchant has no current credentials to sign with.
 */
export const attemptRequest = (delivery: SignedEvent, sentAtSeconds: number, inputs: SigningInputs) =>
  Effect.map(SecretBox, (box) => {
    const secrets = signingSecrets(box, delivery, inputs.sets)
    if (secrets === undefined) return undefined
    const body = ipnBody(delivery.body, inputs.jsonStyle)
    return {
      body,
      headers: {
        "x-signature": ipnSignatureHeader(signWebhook(secrets.current, body), inputs.signatureFormat),
        "x-environment": delivery.environment,
        "x-event-id": delivery.id,
        "webhook-id": delivery.id,
        "webhook-timestamp": String(sentAtSeconds),
        "webhook-signature": secrets.standard.map((key) => signStandardWebhook(key, delivery.id, sentAtSeconds, body)).join(" ")
      }
    }
  })
