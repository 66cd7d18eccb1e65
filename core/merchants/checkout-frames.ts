import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import { now } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"
import { ValidationFailed } from "../shared/validation.js"
import { requireMerchant } from "./merchant-admin.js"

/**
 * The sites a merchant lets frame its hosted checkout (an embed flow): their origins go into the
 * checkout pages' CSP `frame-ancestors`, and the completion message is posted to them only. Every
 * other page keeps `frame-ancestors 'none'`.
 */
export class CheckoutFrameAncestors extends Context.Tag("merchant-payments/CheckoutFrameAncestors")<CheckoutFrameAncestors, {
  /** The merchant's origins, in the order given; empty when none (or no such merchant). */
  readonly get: (merchantId: MerchantId) => Effect.Effect<ReadonlyArray<string>, StorageError>
  /** Replaces the list whole; an empty list leaves nobody allowed. */
  readonly replace: (merchantId: MerchantId, origins: ReadonlyArray<string>, at: Instant) => Effect.Effect<void, StorageError>
}>() {}

/** Enough for a storefront, its staging site and a few brands; a longer list is more likely a mistake. */
export const MAX_FRAME_ANCESTORS = 10

/** The serialized origin CSP can carry as a host-source: lower-case host name or IPv4 address, optional port. */
const CSP_ORIGIN = /^https:\/\/[a-z0-9.-]+(:\d{1,5})?$/

/**
 * One origin as written by a merchant, or why it is refused. `https://shop.example` and
 * `https://shop.example/` are the same origin; a path, query, fragment, credentials, wildcard or any
 * scheme but https is refused: framing is granted to a whole origin or not at all, and over https
 * only, since an http parent could be anyone on the network.
 */
const originOf = (text: string): string | { readonly refused: string } => {
  const shown = text.length > 80 ? `${text.slice(0, 80)}...` : text
  const refuse = (why: string) => ({ refused: `The origin ${shown} is refused: ${why}.` })
  if (text.includes("*")) return refuse("wildcards are not accepted, list each origin")
  if (!URL.canParse(text)) return refuse("it is not an absolute https origin such as https://shop.example")
  const url = new URL(text)
  if (url.protocol !== "https:") return refuse("only https origins may frame checkout")
  if (url.username !== "" || url.password !== "") return refuse("an origin carries no user name or password")
  if (url.pathname !== "/" || url.search !== "" || url.hash !== "" || /^https:\/\/[^/]+\/./i.test(text)) {
    return refuse("give the origin only (scheme, host and port), without a path, query or fragment")
  }
  if (!CSP_ORIGIN.test(url.origin)) return refuse("the host must be a domain name or an IPv4 address")
  return url.origin
}

/** The list as it is kept: each origin normalised (lower-case host, default port dropped), duplicates once. */
export const parseFrameAncestors = (texts: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<string>, ValidationFailed> => {
  const read = texts.map((text) => originOf(text.trim()))
  const refusals = read.flatMap((origin) => (typeof origin === "string" ? [] : [origin.refused]))
  const origins = [...new Set(read.filter((origin): origin is string => typeof origin === "string"))]
  if (origins.length > MAX_FRAME_ANCESTORS) refusals.push(`At most ${MAX_FRAME_ANCESTORS} origins may frame checkout.`)
  return refusals.length > 0
    ? Effect.fail(new ValidationFailed({ errors: { checkoutFrameAncestors: refusals }, code: "VALIDATION_FAILED" }))
    : Effect.succeed(origins)
}

/** The origins that may frame a checkout page of this merchant; none for a page that names no merchant. */
export const checkoutFramers = (merchantId: MerchantId | undefined) =>
  merchantId === undefined ? Effect.succeed<ReadonlyArray<string>>([]) : Effect.flatMap(CheckoutFrameAncestors, (frames) => frames.get(merchantId))

/** The merchant's list (MerchantNotFound for no such merchant). */
export const checkoutFrameAncestors = (merchantId: MerchantId) =>
  Effect.zipRight(requireMerchant(merchantId), Effect.flatMap(CheckoutFrameAncestors, (frames) => frames.get(merchantId)))

/** Checks and replaces the merchant's list whole; answers it as kept. */
export const replaceCheckoutFrameAncestors = (merchantId: MerchantId, texts: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    yield* requireMerchant(merchantId)
    const origins = yield* parseFrameAncestors(texts)
    yield* (yield* CheckoutFrameAncestors).replace(merchantId, origins, yield* now)
    return origins
  })
