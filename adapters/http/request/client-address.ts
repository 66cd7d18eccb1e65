import { BlockList, isIP } from "node:net"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"

/**
 * The proxies whose forwarding headers are believed (TRUSTED_PROXIES, option `trustedProxies`):
 * without any, the client is the socket's peer and `Forwarded` / `X-Forwarded-For` are ignored,
 * since anyone can send them.
 */
export class TrustedProxies extends Context.Tag("merchant-payments/http/TrustedProxies")<TrustedProxies, {
  readonly trusts: (address: string) => boolean
}>() {}

const familyOf = (address: string): "ipv4" | "ipv6" => (isIP(address) === 4 ? "ipv4" : "ipv6")

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is 10.0.0.1: one spelling per address. */
const plain = (address: string): string => {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)
  return mapped !== null ? mapped[1]! : address
}

/**
 * The trusted proxies from addresses and CIDR blocks (`10.0.0.0/8`, `2001:db8::/32`, `127.0.0.1`),
 * or the first entry that is neither, said as a sentence's end ("... is not ...").
 */
export const trustedProxiesOf = (entries: ReadonlyArray<string>): Either.Either<TrustedProxies["Type"], string> => {
  const list = new BlockList()
  for (const entry of entries) {
    const [address = "", prefix, extra] = entry.trim().split("/")
    const family = isIP(address)
    const bits = prefix === undefined ? undefined : /^\d{1,3}$/.test(prefix) ? Number(prefix) : Number.NaN
    if (family === 0 || extra !== undefined || (bits !== undefined && !(bits <= (family === 4 ? 32 : 128)))) {
      return Either.left(`"${entry}" is not an IP address or a CIDR block such as 10.0.0.0/8 or 2001:db8::/32`)
    }
    const type = family === 4 ? "ipv4" : "ipv6"
    if (bits === undefined) list.addAddress(plain(address), type)
    else list.addSubnet(plain(address), bits, type)
  }
  return Either.right({ trusts: (address) => isIP(address) !== 0 && list.check(address, familyOf(address)) })
}

/** A hop as a forwarding header writes it (`203.0.113.7`, `"[2001:db8::17]:4711"`, `198.51.100.2:443`), or undefined. */
const hopAddress = (text: string): string | undefined => {
  const unquoted = text.trim().replace(/^"(.*)"$/, "$1")
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(unquoted)
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(unquoted)
  const address = bracketed?.[1] ?? withPort?.[1] ?? unquoted
  return isIP(address) === 0 ? undefined : plain(address)
}

/**
 * The hops a trusted proxy reports, nearest last: `X-Forwarded-For` (what most proxies append to),
 * else the `for=` of each `Forwarded` element (RFC 7239).
 */
const reportedHops = (headers: Readonly<Record<string, string | undefined>>): ReadonlyArray<string> => {
  const forwardedFor = headers["x-forwarded-for"]
  if (forwardedFor !== undefined) return forwardedFor.split(",")
  const forwarded = headers["forwarded"]
  if (forwarded === undefined) return []
  return forwarded.split(",").map((element) =>
    element.split(";").map((pair) => pair.trim()).find((pair) => pair.toLowerCase().startsWith("for="))?.slice(4) ?? "")
}

/**
 * The client's address: the socket's peer, unless the peer is a trusted proxy, in which case the
 * forwarding header is walked from its nearest hop, passing trusted proxies, to the first address
 * that is not one. Only the hops trusted proxies appended can be believed, and they are the nearest
 * ones: what a client wrote further left is never reached. A hop that is not an address (`unknown`,
 * an obfuscated name) stops the walk at the proxy that reported it.
 */
export const resolveClientAddress = (
  peer: string | undefined,
  headers: Readonly<Record<string, string | undefined>>,
  proxies: TrustedProxies["Type"]
): string => {
  if (peer === undefined) return "unknown"
  let client = plain(peer)
  if (!proxies.trusts(client)) return client
  const hops = reportedHops(headers)
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = hopAddress(hops[index]!)
    if (hop === undefined) return client
    client = hop
    if (!proxies.trusts(hop)) return hop
  }
  return client
}

const NO_PROXIES: TrustedProxies["Type"] = { trusts: () => false }

/**
 * The client's address as the rate limits, the failed-authentication throttle, the dashboard's
 * sign-in throttle, gateway notification limits and the audit logs count it: one rule for all.
 */
export const clientAddress = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<string> =>
  Effect.map(Effect.serviceOption(TrustedProxies), (proxies) =>
    resolveClientAddress(Option.getOrUndefined(request.remoteAddress), request.headers, Option.getOrElse(proxies, () => NO_PROXIES)))
