import { describe, expect, it } from "vitest"
import { expectError, expectOk } from "./assertions.js"
import { createShop, initiate, paymentBody, simulate, startSession, statusOf, uniqueRef } from "./payment-fixtures.js"
import type { Target } from "./signing.js"

const DUPLICATE = { status: 409, errorCode: "DUPLICATE_REFERENCE", fields: ["ref_trx"] } as const

/** docs "duplicate ref_trx": a live or completed payment holds its reference per merchant and environment. */
export const referenceCases = (target: () => Target) =>
  describe("initiate-payment: ref_trx uniqueness", () => {
    it("refuses a ref_trx held by a pending, unexpired session with 409 DUPLICATE_REFERENCE, whatever else differs", async () => {
      const shop = await createShop(target())
      const ref = uniqueRef("dup")
      const first = await startSession(shop.sandbox, "10", { ref_trx: ref })
      expectError(await initiate(shop.sandbox, paymentBody("10", { ref_trx: ref })), DUPLICATE)
      expectError(await initiate(shop.sandbox, paymentBody("99.99", { ref_trx: ref, description: "another cart" })), DUPLICATE)
      // The refused attempt changed nothing: the first session is still the one pending.
      expect(await statusOf(shop.sandbox, first.info.trx_id)).toBe("pending")
    })

    it("refuses a ref_trx held by a completed payment, for good", async () => {
      const shop = await createShop(target())
      const ref = uniqueRef("paid")
      const first = await startSession(shop.sandbox, "10", { ref_trx: ref })
      expect(expectOk(await simulate(shop.sandbox, first.info.trx_id, "success")).status).toBe("success")
      expectError(await initiate(shop.sandbox, paymentBody("10", { ref_trx: ref })), DUPLICATE)
      expectError(await initiate(shop.sandbox, paymentBody("10", { ref_trx: ref })), DUPLICATE)
    })

    it.each(["failed", "cancelled"])("lets a ref_trx start a new session once the earlier one %s, and the new one holds it again", async (outcome) => {
      const shop = await createShop(target())
      const ref = uniqueRef(outcome)
      const first = await startSession(shop.sandbox, "10", { ref_trx: ref })
      expect(expectOk(await simulate(shop.sandbox, first.info.trx_id, outcome)).status).toBe("failed")
      const second = await startSession(shop.sandbox, "12.50", { ref_trx: ref })
      expect(second.info.trx_id).not.toBe(first.info.trx_id)
      expect(second.info.ref_trx).toBe(ref)
      expect(await statusOf(shop.sandbox, first.info.trx_id)).toBe("failed")
      expect(await statusOf(shop.sandbox, second.info.trx_id)).toBe("pending")
      expectError(await initiate(shop.sandbox, paymentBody("10", { ref_trx: ref })), DUPLICATE)
    })

    it("lets exactly one of several concurrent sessions with one ref_trx start", async () => {
      const shop = await createShop(target())
      const ref = uniqueRef("race")
      const responses = await Promise.all(Array.from({ length: 6 }, () => initiate(shop.sandbox, paymentBody("10", { ref_trx: ref }))))
      const started = responses.filter((response) => response.status === 200)
      expect(started, responses.map((r) => `${r.status} ${r.text}`).join("\n")).toHaveLength(1)
      for (const response of responses) if (response.status !== 200) expectError(response, DUPLICATE)
      expect(await statusOf(shop.sandbox, started[0]!.json().info.trx_id)).toBe("pending")
    })

    it("allows the same ref_trx in the other environment and for another merchant", async () => {
      const shop = await createShop(target(), { wallets: ["USD", "USD:production"], production: true })
      const other = await createShop(target())
      const ref = uniqueRef("shared")
      const sandbox = await startSession(shop.sandbox, "10", { ref_trx: ref })
      const production = await startSession(shop.production, "10", { ref_trx: ref })
      const elsewhere = await startSession(other.sandbox, "10", { ref_trx: ref })
      expect(new Set([sandbox.info.trx_id, production.info.trx_id, elsewhere.info.trx_id]).size).toBe(3)
      expect(production.info.environment).toBe("production")
      // Each still holds it in its own scope.
      expectError(await initiate(shop.sandbox, paymentBody("10", { ref_trx: ref })), DUPLICATE)
      expectError(await initiate(shop.production, paymentBody("10", { ref_trx: ref })), DUPLICATE)
      expectError(await initiate(other.sandbox, paymentBody("10", { ref_trx: ref })), DUPLICATE)
    })
  })
