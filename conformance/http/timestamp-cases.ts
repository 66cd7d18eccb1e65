import { describe, expect, it } from "vitest"
import {
  expectHeaderRefused,
  expectOk,
  SIGNATURE_INVALID,
  TIMESTAMP_MALFORMED,
  TIMESTAMP_MISSING,
  TIMESTAMP_STALE
} from "./assertions.js"
import { merchantCaller, readSettings, startOfSecond, withSettings, type MerchantCaller } from "./fixtures.js"
import { nowSeconds, type Target } from "./signing.js"

/**
 * Spec 5.3, 8: X-Timestamp in Unix seconds within a symmetric tolerance (300 s by default,
 * administrator-configurable). Boundary cases start at the top of a wall-clock second and assume the
 * host's clock agrees with this machine's to well under a second.
 */
const expectWindow = async (caller: MerchantCaller, tolerance: number) => {
  const now = await startOfSecond()
  expectOk(await caller.call({ timestamp: String(now - tolerance) }))
  expectOk(await caller.call({ timestamp: String(now + tolerance) }))
  expectHeaderRefused(await caller.call({ timestamp: String(now - tolerance - 1) }), "X-Timestamp", TIMESTAMP_STALE)
  expectHeaderRefused(await caller.call({ timestamp: String(now + tolerance + 1) }), "X-Timestamp", TIMESTAMP_STALE)
}

export const timestampCases = (target: () => Target) =>
  describe("authentication: request timestamp", () => {
    it("refuses a missing X-Timestamp, naming the header, before looking at the signature", async () => {
      const caller = await merchantCaller(target())
      expectHeaderRefused(await caller.call({ timestamp: null }), "X-Timestamp", TIMESTAMP_MISSING)
      expectHeaderRefused(await caller.call({ timestamp: null, signature: null }), "X-Timestamp", TIMESTAMP_MISSING)
    })

    it.each([
      ["empty", ""],
      ["signed", "+1700000000"],
      ["negative", "-1"],
      ["decimal", "1700000000.0"],
      ["exponent", "1.7e9"],
      ["hex", "0x6553f100"],
      ["words", "now"],
      ["ISO date", "2024-01-01T00:00:00Z"],
      ["digits with a letter", "17000000O0"]
    ])("refuses a malformed X-Timestamp (%s)", async (_, timestamp) => {
      const caller = await merchantCaller(target())
      // Signed over the same malformed text, so only the timestamp's form is at fault.
      expectHeaderRefused(await caller.call({ timestamp }), "X-Timestamp", TIMESTAMP_MALFORMED)
    })

    it("refuses a timestamp in milliseconds", async () => {
      const caller = await merchantCaller(target())
      const response = await caller.call({ timestamp: String(Date.now()) })
      expect(response.status).toBe(401)
      const body = response.json()
      expect(body.error_code).toBe("INVALID_CREDENTIALS")
      expect([TIMESTAMP_MALFORMED, TIMESTAMP_STALE]).toContain(body.message)
      expect(Object.keys(body.errors)).toEqual(["X-Timestamp"])
    })

    it("accepts a skew of exactly the configured tolerance, past and future, and refuses one second more", async () => {
      const caller = await merchantCaller(target())
      const { signature_tolerance_seconds: tolerance } = await readSettings(target())
      expect(Number.isInteger(tolerance) && tolerance >= 1).toBe(true)
      await expectWindow(caller, tolerance)
    })

    it("refuses far-off timestamps: zero, a day ago, a day ahead", async () => {
      const caller = await merchantCaller(target())
      for (const timestamp of ["0", String(nowSeconds() - 86_400 - 301), String(nowSeconds() + 86_400 + 301)]) {
        expectHeaderRefused(await caller.call({ timestamp }), "X-Timestamp", TIMESTAMP_STALE)
      }
    })

    it("checks the timestamp window before the signature", async () => {
      const caller = await merchantCaller(target())
      expectHeaderRefused(
        await caller.call({ timestamp: String(nowSeconds() - 100_000), signature: `sha256=${"0".repeat(64)}` }),
        "X-Timestamp",
        TIMESTAMP_STALE
      )
      expectHeaderRefused(await caller.call({ signature: `sha256=${"0".repeat(64)}` }), "X-Signature", SIGNATURE_INVALID)
    })

    it("follows an administrator's tolerance at once: 30 s, then 600 s, then back", async () => {
      const caller = await merchantCaller(target())
      await withSettings(target(), { signature_tolerance_seconds: 30 }, async () => {
        await expectWindow(caller, 30)
        const now = nowSeconds()
        expectHeaderRefused(await caller.call({ timestamp: String(now - 200) }), "X-Timestamp", TIMESTAMP_STALE)
        expectHeaderRefused(await caller.call({ timestamp: String(now + 200) }), "X-Timestamp", TIMESTAMP_STALE)
      })
      await withSettings(target(), { signature_tolerance_seconds: 600 }, async () => {
        const now = nowSeconds()
        expectOk(await caller.call({ timestamp: String(now - 500) }))
        expectOk(await caller.call({ timestamp: String(now + 500) }))
        await expectWindow(caller, 600)
      })
    })
  })
