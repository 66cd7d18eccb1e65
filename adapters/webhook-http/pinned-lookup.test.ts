import { Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { pinTarget, type PinOptions, type ResolveAll, type ResolvedAddress } from "./pinned-lookup.js"

const resolvesTo = (...addresses: ReadonlyArray<string>): ResolveAll => () =>
  Promise.resolve(addresses.map((address): ResolvedAddress => ({ address, family: address.includes(":") ? 6 : 4 })))

/** A resolver that fails the test if called: IP literals must never reach DNS. */
const noDns: ResolveAll = () => Promise.reject(new Error("DNS must not be consulted for an IP literal"))

const pin = (url: string, options: PinOptions) => Effect.runPromise(Effect.either(pinTarget(new URL(url), options)))

/** The error of a refused pin, for matching; undefined when it pinned. */
const leftOf = <A, E>(result: Either.Either<A, E>): E | undefined => Either.isLeft(result) ? result.left : undefined

const guarded = (resolveAll: ResolveAll = noDns): PinOptions => ({ allowPrivateTargets: false, resolveAll })
const open = (resolveAll: ResolveAll = noDns): PinOptions => ({ allowPrivateTargets: true, resolveAll })

describe("pinTarget: IP literals are checked without DNS", () => {
  it("pins a public IPv4 literal to itself", async () => {
    expect(await pin("https://8.8.8.8/hook", guarded())).toEqual(
      Either.right({ hostname: "8.8.8.8", address: "8.8.8.8", family: 4 })
    )
  })

  it("pins a public IPv6 literal without its brackets", async () => {
    expect(await pin("https://[2606:4700::1111]:8443/hook", guarded())).toEqual(
      Either.right({ hostname: "2606:4700::1111", address: "2606:4700::1111", family: 6 })
    )
  })

  it.each([
    ["http://127.0.0.1/", "loopback", "127.0.0.1"],
    ["http://[::1]:8080/", "loopback", "::1"],
    ["http://[::ffff:127.0.0.1]/", "loopback", "::ffff:7f00:1"],
    ["http://169.254.169.254/latest/meta-data/", "metadata", "169.254.169.254"],
    ["http://0x7f.1/", "loopback", "127.0.0.1"], // the URL parser normalises hex and short forms
    ["http://2130706433/", "loopback", "127.0.0.1"],
    ["http://10.0.0.5:9000/", "private", "10.0.0.5"],
    ["http://[fd00:ec2::254]/", "metadata", "fd00:ec2::254"]
  ])("refuses %s as %s", async (url, reason, address) => {
    const result = await pin(url, guarded())
    expect(leftOf(result)).toMatchObject({ _tag: "TargetRefused", reason, address })
  })

  it("allows private literals when private targets are allowed", async () => {
    expect(await pin("http://127.0.0.1:3000/", open())).toEqual(
      Either.right({ hostname: "127.0.0.1", address: "127.0.0.1", family: 4 })
    )
  })
})

describe("pinTarget: host names are resolved once and every address is checked", () => {
  it("pins the first address when all are public", async () => {
    expect(await pin("https://hooks.example.com/x", guarded(resolvesTo("93.184.216.34", "2606:2800:220:1::1")))).toEqual(
      Either.right({ hostname: "hooks.example.com", address: "93.184.216.34", family: 4 })
    )
  })

  it.each([
    [["93.184.216.34", "127.0.0.1"], "loopback", "127.0.0.1"],
    [["10.1.1.1", "93.184.216.34"], "private", "10.1.1.1"],
    [["2606:2800:220:1::1", "fe80::1"], "link-local", "fe80::1"]
  ])("refuses a name resolving to %j (DNS rebinding)", async (addresses, reason, address) => {
    const result = await pin("https://rebind.example.com/", guarded(resolvesTo(...addresses)))
    expect(leftOf(result)).toMatchObject({ _tag: "TargetRefused", reason, address })
  })

  it.each(["localhost", "LOCALHOST.", "api.localhost"])("refuses %s by name, without asking DNS", async (host) => {
    const result = await pin(`http://${host}:8080/`, guarded())
    expect(leftOf(result)).toMatchObject({ _tag: "TargetRefused", reason: "loopback" })
  })

  it("pins the first address of a mixed set when private targets are allowed", async () => {
    expect(await pin("http://dev.internal/", open(resolvesTo("10.0.0.2", "93.184.216.34")))).toEqual(
      Either.right({ hostname: "dev.internal", address: "10.0.0.2", family: 4 })
    )
  })

  it("reports a failed resolution by its code, as a lookup failure", async () => {
    const notFound: ResolveAll = () => Promise.reject(Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" }))
    const result = await pin("https://missing.example.com/", guarded(notFound))
    expect(leftOf(result)).toMatchObject({
      _tag: "LookupFailed",
      message: "DNS lookup of missing.example.com failed: ENOTFOUND"
    })
  })

  it("reports an empty resolution as a lookup failure", async () => {
    const result = await pin("https://empty.example.com/", guarded(resolvesTo()))
    expect(leftOf(result)).toMatchObject({ _tag: "LookupFailed" })
  })
})

describe("pinTarget: URL rules", () => {
  it.each(["ftp://8.8.8.8/", "file:///etc/passwd", "ws://8.8.8.8/", "gopher://8.8.8.8/"])("refuses the scheme of %s", async (url) => {
    const result = await pin(url, open())
    expect(leftOf(result)).toMatchObject({ _tag: "TargetRefused", reason: `unsupported scheme ${new URL(url).protocol}` })
  })

  it.each(["https://user:secret@8.8.8.8/", "https://user@8.8.8.8/", "https://:secret@8.8.8.8/"])(
    "refuses credentials in %s without repeating them",
    async (url) => {
      const result = await pin(url, open())
      expect(leftOf(result)).toMatchObject({ _tag: "TargetRefused", reason: "credentials in URL" })
      expect(JSON.stringify(leftOf(result))).not.toContain("secret")
    }
  )

  it("allows any port", async () => {
    expect(Either.isRight(await pin("https://8.8.8.8:1/", guarded()))).toBe(true)
    expect(Either.isRight(await pin("http://8.8.8.8:65535/", guarded()))).toBe(true)
  })
})
