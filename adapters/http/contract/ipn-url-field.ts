import * as Effect from "effect/Effect"
import type { BodyFields } from "../request/body-fields.js"

/**
 * The use case checks `ipn_url` (core/webhooks/ipn-url-rule.ts); a body refused for other fields
 * never reaches it, so the same rule is asked here then, and its problem told with the rest at once.
 */
export const ipnUrlToo = <R>(fields: BodyFields, ipnUrl: string | undefined, refusal: (ipnUrl: string) => Effect.Effect<string | undefined, never, R>) =>
  fields.refused && ipnUrl !== undefined
    ? Effect.map(refusal(ipnUrl), (message) => {
      if (message !== undefined) fields.fail("ipn_url", message)
    })
    : Effect.void
