import { promises as dns } from "node:dns"
import { isIP } from "node:net"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { isForbiddenAddress } from "../../core/webhooks/address-policy.js"
import { bareAddress } from "../../core/webhooks/ip-address.js"
import { hostRefusal, schemeRefusal } from "../../core/webhooks/target-rule.js"

/** Where one attempt connects: the address checked here, never a second resolution. */
export interface PinnedTarget {
  /** The URL host without brackets: what the Host header and TLS certificate check name. */
  readonly hostname: string
  readonly address: string
  readonly family: 4 | 6
}

/** The URL may not be called; `address` is the offending one when an address was the cause. */
export class TargetRefused extends Data.TaggedError("TargetRefused")<{
  readonly reason: string
  readonly address?: string
}> {}

/** The host name did not resolve: a network failure of this attempt, not a policy refusal. */
export class LookupFailed extends Data.TaggedError("LookupFailed")<{ readonly message: string }> {}

export interface ResolvedAddress {
  readonly address: string
  readonly family: number
}

/** Every address of a host name; injectable because no public DNS name resolves to a mixed set here. */
export type ResolveAll = (hostname: string) => Promise<ReadonlyArray<ResolvedAddress>>

export const systemResolveAll: ResolveAll = (hostname) => dns.lookup(hostname, { all: true, verbatim: true })

export interface PinOptions {
  readonly allowPrivateTargets: boolean
  readonly resolveAll?: ResolveAll
}

const familyOf = (address: string): 4 | 6 | undefined => {
  const family = isIP(address)
  return family === 4 || family === 6 ? family : undefined
}

const lookupError = (hostname: string, cause: unknown): LookupFailed => {
  const code = typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : "failed"
  return new LookupFailed({ message: `DNS lookup of ${hostname} failed: ${code}` })
}

/**
 * Checks a webhook URL and fixes the one address it will be sent to. Every resolved address must be
 * public, not just the one picked: a name that also resolves to a private address is a rebinding
 * attempt, and a later resolution (by Node, at connect time) could pick the private one.
 */
export const pinTarget = (
  url: URL,
  options: PinOptions
): Effect.Effect<PinnedTarget, TargetRefused | LookupFailed> =>
  Effect.gen(function*() {
    // The same rule initiate-payment applies to ipn_url (refusalBeforeLookup), in its two halves.
    const schemeReason = schemeRefusal(url)
    if (schemeReason !== undefined) return yield* new TargetRefused({ reason: schemeReason })
    const hostname = bareAddress(url.hostname)
    const hostReason = hostRefusal(hostname, options)
    if (hostReason !== undefined) return yield* new TargetRefused({ reason: hostReason, address: hostname })
    const literalFamily = familyOf(hostname)
    if (literalFamily !== undefined) return { hostname, address: hostname, family: literalFamily }
    const resolveAll = options.resolveAll ?? systemResolveAll
    const resolved = yield* Effect.tryPromise({
      try: () => resolveAll(hostname),
      catch: (cause) => lookupError(hostname, cause)
    })
    if (!options.allowPrivateTargets) {
      for (const { address } of resolved) {
        const reason = isForbiddenAddress(address)
        if (reason !== undefined) return yield* new TargetRefused({ reason, address })
      }
    }
    const first = resolved[0]
    const family = first === undefined ? undefined : familyOf(first.address)
    if (first === undefined || family === undefined) {
      return yield* new LookupFailed({ message: `DNS lookup of ${hostname} returned no address` })
    }
    return { hostname, address: first.address, family }
  })
