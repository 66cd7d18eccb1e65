import { describe, expect, it } from "vitest"
import { expectError, expectOk } from "./assertions.js"
import { merchantCaller, sleep, withSettings, type MerchantCaller } from "./fixtures.js"
import type { HttpResult, Target } from "./signing.js"

const LIMIT = 3

/**
 * Counting happens in fixed one-minute windows; a burst that straddles a window boundary would be
 * counted twice over. Start every burst well inside a minute (by this machine's clock).
 */
const awayFromMinuteBoundary = async () => {
  const second = Math.floor(Date.now() / 1000) % 60
  if (second >= 50) await sleep((61 - second) * 1000)
}

const expectRateLimited = (response: HttpResult) => {
  expectError(response, { status: 429, errorCode: "RATE_LIMITED", message: "Too many requests.", errors: {} })
  const retryAfter = response.headers["retry-after"] ?? ""
  expect(retryAfter, "Retry-After is whole seconds").toMatch(/^[0-9]+$/)
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1)
  expect(Number(retryAfter)).toBeLessThanOrEqual(60)
}

/** `LIMIT` calls pass, the next is a 429. */
const exhaust = async (caller: MerchantCaller, localAddress?: string) => {
  const options = localAddress === undefined ? {} : { localAddress }
  for (let i = 1; i <= LIMIT; i++) expectOk(await caller.call(options))
  expectRateLimited(await caller.call(options))
}

const isLoopback = (baseUrl: string) => ["127.0.0.1", "localhost"].includes(new URL(baseUrl).hostname)

/** Spec 8: a per-minute limit per merchant and client IP, administrator-configurable; over it, 429 with Retry-After. */
export const rateLimitCases = (target: () => Target) =>
  describe("rate limit", () => {
    it("answers 429 RATE_LIMITED with Retry-After once a merchant exceeds the per-minute limit", async () => {
      const caller = await merchantCaller(target())
      await withSettings(target(), { rate_limit_per_minute: LIMIT }, async () => {
        await awayFromMinuteBoundary()
        await exhaust(caller)
        // Stays refused for the rest of the window.
        expectRateLimited(await caller.call())
      })
    })

    it("counts each merchant separately", async () => {
      const first = await merchantCaller(target())
      const second = await merchantCaller(target(), { environment: "production" })
      await withSettings(target(), { rate_limit_per_minute: LIMIT }, async () => {
        await awayFromMinuteBoundary()
        await exhaust(first)
        // The second merchant, from the same client, still has its whole allowance.
        await exhaust(second)
      })
    })

    it("counts each client IP separately (loopback hosts only: needs a second local address)", async (context) => {
      if (!isLoopback(target().baseUrl)) return context.skip()
      const caller = await merchantCaller(target())
      await withSettings(target(), { rate_limit_per_minute: LIMIT }, async () => {
        await awayFromMinuteBoundary()
        let secondAddress: HttpResult
        try {
          secondAddress = await caller.call({ localAddress: "127.0.0.2" })
        } catch {
          return context.skip() // 127.0.0.2 is not configured on this machine
        }
        expectOk(secondAddress)
        for (let i = 2; i <= LIMIT; i++) expectOk(await caller.call({ localAddress: "127.0.0.2" }))
        expectRateLimited(await caller.call({ localAddress: "127.0.0.2" }))
        await exhaust(caller, "127.0.0.1")
      })
    })

    it("follows an administrator's limit at once: raising it lets the same merchant through again", async () => {
      const caller = await merchantCaller(target())
      await withSettings(target(), { rate_limit_per_minute: LIMIT }, async () => {
        await awayFromMinuteBoundary()
        await exhaust(caller)
        await withSettings(target(), { rate_limit_per_minute: LIMIT + 10 }, async () => {
          expectOk(await caller.call())
        })
        expectRateLimited(await caller.call())
      })
    })
  })
