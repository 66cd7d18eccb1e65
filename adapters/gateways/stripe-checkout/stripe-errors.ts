import type Stripe from "stripe"
import type { StripeCheckoutConfig } from "./stripe-checkout-config.js"
import { loadStripe } from "./stripe-client.js"

/**
 * A Stripe call that went wrong, with a message safe to log. `permanent`: Stripe understood the
 * request and refused it (a card or invalid-request error); asking again would get the same answer.
 * Everything else (network, timeouts, 5xx, 429, a refused key) may go through later.
 */
export class StripeCallError extends Error {
  constructor(message: string, readonly permanent: boolean, readonly code: string | undefined) {
    super(message)
    this.name = "StripeCallError"
  }
}

const MAX_MESSAGE_LENGTH = 500

/** Stripe echoes a masked key in some messages ("sk_test_****abcd"): no part of a key leaves the plugin. */
export const redact = (message: string, config: StripeCheckoutConfig): string => {
  let text = message
  for (const secret of [config.secret_key, config.webhook_secret]) text = text.split(secret).join("[redacted]")
  text = text.replace(/\b(sk|rk|whsec)_[A-Za-z0-9_*]+/g, "$1_[redacted]")
  return text.length > MAX_MESSAGE_LENGTH ? `${text.slice(0, MAX_MESSAGE_LENGTH)}...` : text
}

const describe = (error: unknown, config: StripeCheckoutConfig, errors: typeof Stripe.errors): StripeCallError => {
  if (error instanceof errors.StripeAuthenticationError) {
    return new StripeCallError("Stripe refused this gateway's secret_key (authentication failed)", false, error.code)
  }
  if (error instanceof errors.StripePermissionError) {
    return new StripeCallError("this gateway's secret_key is not allowed to do this at Stripe (permission denied)", false, error.code)
  }
  if (error instanceof errors.StripeIdempotencyError) {
    // The first request with this key may have done its work: never report that as a plain refusal.
    return new StripeCallError(`Stripe refused the idempotency key: ${redact(error.message, config)}`, false, error.code)
  }
  if (error instanceof errors.StripeCardError || error instanceof errors.StripeInvalidRequestError) {
    return new StripeCallError(redact(error.message, config), true, error.code)
  }
  if (error instanceof errors.StripeConnectionError) {
    return new StripeCallError(`could not reach Stripe: ${redact(error.message, config)}`, false, error.code)
  }
  if (error instanceof errors.StripeError) {
    const status = error.statusCode !== undefined ? ` (HTTP ${error.statusCode})` : ""
    return new StripeCallError(`Stripe failed${status}: ${redact(error.message, config)}`, false, error.code)
  }
  return new StripeCallError(`the Stripe call failed: ${redact(error instanceof Error ? error.message : String(error), config)}`, false, undefined)
}

/** Runs one Stripe request; whatever it throws comes out as a StripeCallError with no secret in it. */
export const stripeCall = async <A>(config: StripeCheckoutConfig, request: () => Promise<A>): Promise<A> => {
  try {
    return await request()
  } catch (error) {
    // stripe-node is loaded by then: the request that failed was made with it.
    throw describe(error, config, (await loadStripe()).errors)
  }
}

/** Whether Stripe said the object asked for does not exist (a wrong or foreign id). */
export const isMissing = (error: unknown): boolean => error instanceof StripeCallError && error.code === "resource_missing"
