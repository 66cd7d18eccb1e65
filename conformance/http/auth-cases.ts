import { describe, expect, it } from "vitest"
import {
  expectError,
  expectHeaderRefused,
  expectInvalidCredentials,
  expectOk,
  SIGNATURE_INVALID,
  TIMESTAMP_MISSING
} from "./assertions.js"
import { callerFor, createMerchant, issueCredentials, merchantCaller } from "./fixtures.js"
import type { Target } from "./signing.js"

const ENVIRONMENT_REQUIRED = { "X-Environment": ["The X-Environment header is required: sandbox or production."] }
const ENVIRONMENT_INVALID = { "X-Environment": ["The X-Environment header must be sandbox or production."] }
const KEYS_REQUIRED = { "X-API-Key": ["The X-Merchant-Key and X-API-Key headers are required."] }

/** Spec 5.1, 5.2, 7.4: which credentials and environments a merchant call is accepted with. */
export const authCases = (target: () => Target) =>
  describe("authentication: credentials and environment", () => {
    it("accepts a correctly signed sandbox call and a correctly signed production call", async () => {
      const sandbox = await merchantCaller(target(), { environment: "sandbox" })
      expectOk(await sandbox.call())
      const production = await merchantCaller(target(), { environment: "production" })
      expectOk(await production.call())
    })

    it("issues sandbox keys with the test_ prefix and production keys without it, each with its own secret", async () => {
      const merchant = await createMerchant(target(), { status: "approved" })
      const sandbox = await issueCredentials(target(), merchant.id, "sandbox")
      const production = await issueCredentials(target(), merchant.id, "production")
      expect(sandbox.environment).toBe("sandbox")
      expect(production.environment).toBe("production")
      expect(sandbox.merchant_key.startsWith("test_")).toBe(true)
      expect(sandbox.api_key.startsWith("test_")).toBe(true)
      expect(production.merchant_key.startsWith("test_")).toBe(false)
      expect(production.api_key.startsWith("test_")).toBe(false)
      for (const secret of [sandbox.client_secret, sandbox.webhook_secret, production.client_secret, production.webhook_secret]) {
        expect(typeof secret).toBe("string")
        expect(secret.length).toBeGreaterThanOrEqual(16)
      }
      expect(sandbox.client_secret).not.toBe(production.client_secret)
      expect(sandbox.client_secret).not.toBe(sandbox.webhook_secret)
    })

    it("refuses a call without X-Environment on site-info, naming the header", async () => {
      const caller = await merchantCaller(target())
      expectInvalidCredentials(await caller.call({ environment: undefined }), ENVIRONMENT_REQUIRED)
    })

    it.each(["Sandbox", "PRODUCTION", "live", "test", ""])("refuses X-Environment %j", async (value) => {
      const caller = await merchantCaller(target())
      expectInvalidCredentials(await caller.call({ environment: value }), ENVIRONMENT_INVALID)
    })

    it("refuses a call with a missing or empty X-Merchant-Key or X-API-Key", async () => {
      const caller = await merchantCaller(target())
      expectInvalidCredentials(await caller.call({ merchantKey: undefined }), KEYS_REQUIRED)
      expectInvalidCredentials(await caller.call({ apiKey: undefined }), KEYS_REQUIRED)
      expectInvalidCredentials(await caller.call({ merchantKey: undefined, apiKey: undefined }), KEYS_REQUIRED)
      expectInvalidCredentials(await caller.call({ merchantKey: "" }), KEYS_REQUIRED)
      expectInvalidCredentials(await caller.call({ apiKey: "" }), KEYS_REQUIRED)
    })

    it("checks the environment before the keys", async () => {
      const caller = await merchantCaller(target())
      expectInvalidCredentials(
        await caller.call({ environment: undefined, merchantKey: undefined, apiKey: undefined }),
        ENVIRONMENT_REQUIRED
      )
    })

    it("refuses unknown keys and a wrong API key with the bare 401", async () => {
      const caller = await merchantCaller(target())
      const other = await merchantCaller(target())
      expectInvalidCredentials(await caller.call({ merchantKey: `test_mk_${"0".repeat(24)}` }))
      expectInvalidCredentials(await caller.call({ apiKey: `test_ak_${"0".repeat(43)}` }))
      expectInvalidCredentials(await caller.call({ apiKey: other.credentials.api_key }))
      expectInvalidCredentials(await caller.call({ merchantKey: other.credentials.merchant_key }))
      expectInvalidCredentials(await caller.call({ apiKey: caller.credentials.merchant_key }))
      expectInvalidCredentials(await caller.call({ merchantKey: "test_", apiKey: "test_" }))
    })

    it("judges the keys before the timestamp: a wrong key without X-Timestamp is still just invalid credentials", async () => {
      const caller = await merchantCaller(target())
      expectInvalidCredentials(await caller.call({ apiKey: `test_ak_${"1".repeat(43)}`, timestamp: null, signature: null }))
      // ...and a right key without X-Timestamp gets the timestamp message instead.
      expectError(await caller.call({ timestamp: null, signature: null }), {
        status: 401,
        errorCode: "INVALID_CREDENTIALS",
        message: TIMESTAMP_MISSING
      })
    })

    it("refuses sandbox keys sent as production and production keys sent as sandbox (switching only the header)", async () => {
      const merchant = await createMerchant(target(), { status: "approved" })
      const sandbox = callerFor(target(), merchant, await issueCredentials(target(), merchant.id, "sandbox"))
      const production = callerFor(target(), merchant, await issueCredentials(target(), merchant.id, "production"))
      expectOk(await sandbox.call())
      expectOk(await production.call())
      expectInvalidCredentials(await sandbox.call({ environment: "production" }))
      expectInvalidCredentials(await production.call({ environment: "sandbox" }))
      // Each environment's keys with the other environment's secret: the keys are right, the signature is not.
      expectHeaderRefused(await sandbox.call({ secret: production.credentials.client_secret }), "X-Signature", SIGNATURE_INVALID)
      expectHeaderRefused(await production.call({ secret: sandbox.credentials.client_secret }), "X-Signature", SIGNATURE_INVALID)
      // Keys from both environments mixed in one request.
      expectInvalidCredentials(await sandbox.call({ apiKey: production.credentials.api_key }))
      expectInvalidCredentials(await production.call({ apiKey: sandbox.credentials.api_key }))
    })

    it("refuses the previous credential set at once after new credentials are issued", async () => {
      const merchant = await createMerchant(target(), { status: "approved" })
      const old = callerFor(target(), merchant, await issueCredentials(target(), merchant.id, "sandbox"))
      expectOk(await old.call())
      const fresh = callerFor(target(), merchant, await issueCredentials(target(), merchant.id, "sandbox"))
      expect(fresh.credentials.merchant_key).not.toBe(old.credentials.merchant_key)
      expect(fresh.credentials.api_key).not.toBe(old.credentials.api_key)
      expect(fresh.credentials.client_secret).not.toBe(old.credentials.client_secret)
      expectInvalidCredentials(await old.call())
      expectInvalidCredentials(await fresh.call({ apiKey: old.credentials.api_key }))
      expectInvalidCredentials(await fresh.call({ merchantKey: old.credentials.merchant_key }))
      expectHeaderRefused(await fresh.call({ secret: old.credentials.client_secret }), "X-Signature", SIGNATURE_INVALID)
      expectOk(await fresh.call())
    })

    it("leaves the other environment's credentials working when one environment's are reissued", async () => {
      const merchant = await createMerchant(target(), { status: "approved" })
      const production = callerFor(target(), merchant, await issueCredentials(target(), merchant.id, "production"))
      await issueCredentials(target(), merchant.id, "sandbox")
      await issueCredentials(target(), merchant.id, "sandbox")
      expectOk(await production.call())
    })
  })
