import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { issueCheckoutToken, verifyCheckoutToken } from "../signing/checkout-token.js"

/** Issues a payment's checkout link, valid until `expiresAtSeconds`. */
export type LinkFor = (trxId: string, expiresAtSeconds: number) => string

/**
 * Signed, time-limited links to hosted checkout. The token names the payment and its expiry and is
 * authenticated with a key derived from the master key, so a link cannot be forged or extended.
 */
export class CheckoutLinks extends Context.Tag("merchant-payments/CheckoutLinks")<CheckoutLinks, {
  /** The link for a payment, valid until `expiresAtSeconds`. */
  readonly linkFor: LinkFor
  /** Reads a token from a link: which payment, or why not. */
  readonly read: (token: string, nowSeconds: number) => ReturnType<typeof verifyCheckoutToken>
  /** How long a new session's link lives. */
  readonly lifetimeSeconds: number
  /** The public base address links are issued under (no trailing slash). */
  readonly baseUrl: string
}>() {}

/**
 * Links are issued under `key`; during a master key rotation a link issued under `previousKey`
 * still opens until it expires, so no customer mid-checkout is turned away by the rotation.
 */
export const layer = (options: {
  readonly key: Uint8Array
  readonly previousKey?: Uint8Array | undefined
  readonly baseUrl: string
  readonly lifetimeSeconds: number
}) =>
  Layer.succeed(CheckoutLinks, CheckoutLinks.of({
    linkFor: (trxId, expiresAtSeconds) =>
      `${options.baseUrl}/checkout/${issueCheckoutToken({ key: options.key, trxId, expiresAtSeconds })}`,
    read: (token, nowSeconds) => {
      const check = verifyCheckoutToken({ key: options.key, token, nowSeconds })
      return check._tag === "Invalid" && options.previousKey !== undefined
        ? verifyCheckoutToken({ key: options.previousKey, token, nowSeconds })
        : check
    },
    lifetimeSeconds: options.lifetimeSeconds,
    baseUrl: options.baseUrl
  }))
