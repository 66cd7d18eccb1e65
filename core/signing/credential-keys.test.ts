import { describe, expect, it } from "vitest"
import { credentialMatchesEnvironment, generateCredentials, hashApiKey } from "./credential-keys.js"

const BASE62 = "[0-9A-Za-z]"

describe("generateCredentials", () => {
  it("prefixes sandbox merchant and API keys with test_", () => {
    const c = generateCredentials("sandbox")
    expect(c.merchantKey).toMatch(new RegExp(`^test_mk_${BASE62}{24}$`))
    expect(c.apiKey).toMatch(new RegExp(`^test_ak_${BASE62}{43}$`))
    expect(credentialMatchesEnvironment(c.merchantKey, "sandbox")).toBe(true)
    expect(credentialMatchesEnvironment(c.apiKey, "sandbox")).toBe(true)
    expect(credentialMatchesEnvironment(c.apiKey, "production")).toBe(false)
  })

  it("never prefixes production values with test_", () => {
    for (let i = 0; i < 200; i++) {
      const c = generateCredentials("production")
      expect(c.merchantKey).toMatch(new RegExp(`^mk_${BASE62}{24}$`))
      expect(c.apiKey).toMatch(new RegExp(`^ak_${BASE62}{43}$`))
      for (const value of Object.values(c)) expect(value.startsWith("test_")).toBe(false)
      expect(credentialMatchesEnvironment(c.merchantKey, "production")).toBe(true)
      expect(credentialMatchesEnvironment(c.merchantKey, "sandbox")).toBe(false)
    }
  })

  it("gives secrets at least 256 bits in both environments", () => {
    for (const environment of ["sandbox", "production"] as const) {
      const c = generateCredentials(environment)
      expect(c.clientSecret).toMatch(new RegExp(`^cs_${BASE62}{43}$`))
      expect(c.webhookSecret).toMatch(new RegExp(`^whsec_${BASE62}{44}$`))
      expect(43 * Math.log2(62)).toBeGreaterThanOrEqual(256)
    }
  })

  it("never repeats a value over many draws", () => {
    const seen = new Set<string>()
    const draws = 2_000
    for (let i = 0; i < draws; i++) {
      for (const value of Object.values(generateCredentials(i % 2 === 0 ? "sandbox" : "production"))) seen.add(value)
    }
    expect(seen.size).toBe(draws * 4)
  })

  it("uses the whole base62 alphabet", () => {
    const chars = new Set<string>()
    for (let i = 0; i < 200; i++) for (const ch of generateCredentials("production").apiKey.slice(3)) chars.add(ch)
    expect(chars.size).toBe(62)
  })
})

describe("credentialMatchesEnvironment", () => {
  it("applies the prefix rule exactly", () => {
    expect(credentialMatchesEnvironment("test_mk_abc", "sandbox")).toBe(true)
    expect(credentialMatchesEnvironment("test_", "sandbox")).toBe(false)
    expect(credentialMatchesEnvironment("TEST_mk_abc", "sandbox")).toBe(false)
    expect(credentialMatchesEnvironment("mk_abc", "sandbox")).toBe(false)
    expect(credentialMatchesEnvironment("mk_abc", "production")).toBe(true)
    expect(credentialMatchesEnvironment("test_mk_abc", "production")).toBe(false)
    expect(credentialMatchesEnvironment("", "production")).toBe(false)
  })
})

describe("hashApiKey", () => {
  it("matches openssl", () => {
    // printf '%s' 'test_ak_example' | openssl dgst -sha256
    expect(hashApiKey("test_ak_example")).toBe("b7850a70e3b39db4f1e07c7d200462314d9aeb58514ada70dae3b6a56c0d1bf3")
  })

  it("is stable and distinguishes keys", () => {
    const { apiKey } = generateCredentials("sandbox")
    expect(hashApiKey(apiKey)).toBe(hashApiKey(apiKey))
    expect(hashApiKey(apiKey)).not.toBe(hashApiKey(`${apiKey}x`))
    expect(hashApiKey(apiKey)).toMatch(/^[0-9a-f]{64}$/)
  })
})
