import * as Either from "effect/Either"
import { describe, expect, it } from "vitest"
import { resolveClientAddress, trustedProxiesOf } from "./client-address.js"

const proxies = (entries: ReadonlyArray<string>) => Either.getOrThrow(trustedProxiesOf(entries))

describe("the client address rule", () => {
  const behindProxy = proxies(["10.0.0.0/8", "192.0.2.1", "2001:db8:ffff::/48"])

  it("is the socket's peer when no proxy is trusted, whatever the headers say", () => {
    expect(resolveClientAddress("192.0.2.1", { "x-forwarded-for": "203.0.113.9" }, proxies([]))).toBe("192.0.2.1")
    expect(resolveClientAddress("::ffff:192.0.2.1", {}, proxies([]))).toBe("192.0.2.1")
    expect(resolveClientAddress(undefined, {}, proxies([]))).toBe("unknown")
  })

  it("is the peer when the peer is not a trusted proxy", () => {
    expect(resolveClientAddress("198.51.100.4", { "x-forwarded-for": "203.0.113.9", forwarded: "for=203.0.113.9" }, behindProxy)).toBe("198.51.100.4")
  })

  it("walks X-Forwarded-For from the nearest hop past trusted proxies; entries a client wrote further left are never reached", () => {
    expect(resolveClientAddress("192.0.2.1", { "x-forwarded-for": "203.0.113.9" }, behindProxy)).toBe("203.0.113.9")
    expect(resolveClientAddress("::ffff:10.0.0.2", { "x-forwarded-for": "1.1.1.1, 203.0.113.9, 10.9.9.9" }, behindProxy)).toBe("203.0.113.9")
    expect(resolveClientAddress("192.0.2.1", { "x-forwarded-for": "203.0.113.9:5555, [2001:db8::1]:443" }, behindProxy)).toBe("2001:db8::1")
    // Every hop trusted: the farthest one is the client.
    expect(resolveClientAddress("192.0.2.1", { "x-forwarded-for": "10.0.0.5" }, behindProxy)).toBe("10.0.0.5")
    // No header: the proxy itself.
    expect(resolveClientAddress("192.0.2.1", {}, behindProxy)).toBe("192.0.2.1")
  })

  it("reads Forwarded's for= when there is no X-Forwarded-For", () => {
    expect(resolveClientAddress("192.0.2.1", { forwarded: "for=198.51.100.7;proto=https, for=\"[2001:db8:cafe::17]:4711\"" }, behindProxy))
      .toBe("2001:db8:cafe::17")
    expect(resolveClientAddress("192.0.2.1", { forwarded: "For=\"198.51.100.7:80\";by=192.0.2.1" }, behindProxy)).toBe("198.51.100.7")
  })

  it("stops at the reporting proxy when a hop is not an address", () => {
    expect(resolveClientAddress("192.0.2.1", { forwarded: "for=unknown" }, behindProxy)).toBe("192.0.2.1")
    expect(resolveClientAddress("192.0.2.1", { "x-forwarded-for": "203.0.113.9, _hidden, 10.0.0.3" }, behindProxy)).toBe("10.0.0.3")
  })

  it("refuses an entry that is not an address or a CIDR block, naming it", () => {
    for (const entry of ["10.0.0.0/33", "2001:db8::/129", "10.0.0.0/8/8", "proxy.internal", "10.0.0.0/", "10.0.0.0/x", ""]) {
      const refused = trustedProxiesOf([entry])
      expect(Either.isLeft(refused), entry).toBe(true)
      expect(Either.getLeft(refused)).toEqual(expect.objectContaining({ _tag: "Some" }))
    }
    expect(Either.flip(trustedProxiesOf(["10.0.0.1", "nope"]))).toEqual(Either.right("\"nope\" is not an IP address or a CIDR block such as 10.0.0.0/8 or 2001:db8::/32"))
  })
})
