import { randomUUID } from "node:crypto"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { PayoutContext, PayoutDestinationAtRail } from "../../core/gateways/gateway-plugin.js"
import { PAYOUT_DESTINATION_TYPES } from "../../core/gateways/plugin-shape.js"
import type { PayoutRail } from "../../core/payouts/payout-rail.js"

/** How to play a rail's far side (a bank, Stripe) for the payout cases. */
export interface PayoutRailDriver {
  /** The config a gateway record of the rail's plugin would carry; read after `setup`. None for the manual rail. */
  readonly config?: unknown
  /** The payouts' currency (default EUR). */
  readonly currency?: string
  /** A destination of this type the far side pays. */
  readonly destination: (type: string) => PayoutDestinationAtRail
  /** A destination the far side refuses for good (an account that does not exist): the failure case, skipped without it. */
  readonly refusedDestination?: () => PayoutDestinationAtRail
  /**
   * The amounts the far side moved for a payout, as exact decimals, one per transfer: the
   * exactness and once-only cases. Absent for a rail that sends nothing itself (the manual rail).
   */
  readonly received?: (payoutId: string) => ReadonlyArray<string>
  readonly setup?: () => void | Promise<void>
  readonly teardown?: () => void | Promise<void>
}

const quiet = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => Effect.runPromise(effect.pipe(Logger.withMinimumLogLevel(LogLevel.None)))

/**
 * The contract of a payout rail (the `payouts` capability, or the built-in manual rail): it names
 * destination types a payout can have; an approved payout handed to it is answered paid (with a
 * reference), pending, or failed (with a reason) and never anything else; handed over again under the
 * same idempotency key it moves no more money; the amount reaches the far side exactly.
 */
export const payoutRailConformance = (rail: () => PayoutRail, driver: PayoutRailDriver): void => {
  describe(`payout rail conformance: ${rail().id}`, () => {
    beforeAll(async () => driver.setup?.(), 60_000)
    afterAll(async () => driver.teardown?.())

    const currency = driver.currency ?? "EUR"
    const context = (amount: string, destination: PayoutDestinationAtRail, payoutId = `po_${randomUUID().replaceAll("-", "")}`): PayoutContext<unknown> => ({
      payoutId,
      merchantId: 1,
      amount,
      currency,
      environment: "sandbox",
      destination,
      idempotencyKey: payoutId,
      config: driver.config,
      gateway: { id: 1, code: `${rail().id}-${currency.toLowerCase()}`, name: "Payout rail under test" }
    })

    it("pays to one or more of the destination types a payout can have", () => {
      expect(rail().destinationTypes.length).toBeGreaterThan(0)
      for (const type of rail().destinationTypes) expect(PAYOUT_DESTINATION_TYPES).toContain(type)
    })

    it("answers an approved payout paid with its reference, or pending; never failed for a destination it pays", async () => {
      for (const type of rail().destinationTypes) {
        const report = await quiet(rail().send(context("12.50", driver.destination(type))))
        expect(["paid", "pending"]).toContain(report.status)
        if (report.status === "paid") expect(report.reference).toMatch(/\S/)
      }
    })

    it("moves the money once however often one payout is handed over", async () => {
      const sent = context("7.25", driver.destination(rail().destinationTypes[0]!))
      const first = await quiet(rail().send(sent))
      const again = await quiet(rail().send(sent))
      expect(again).toEqual(first)
      if (driver.received !== undefined) expect(driver.received(sent.payoutId)).toHaveLength(first.status === "paid" ? 1 : 0)
    })

    it.skipIf(driver.received === undefined)("moves exactly the amount asked: tenths that floats get wrong, and the largest amounts", async () => {
      for (const amount of ["0.30", "0.10", "9999999.99"]) {
        const sent = context(amount, driver.destination(rail().destinationTypes[0]!))
        const report = await quiet(rail().send(sent))
        expect(report.status).toBe("paid")
        expect(driver.received!(sent.payoutId)).toEqual([amount])
      }
    })

    it.skipIf(driver.refusedDestination === undefined)("answers failed with a reason when the far side refuses for good, moving nothing", async () => {
      const sent = context("3.00", driver.refusedDestination!())
      const report = await quiet(rail().send(sent))
      expect(report.status).toBe("failed")
      expect(report.reason).toMatch(/\S/)
      if (driver.received !== undefined) expect(driver.received(sent.payoutId)).toEqual([])
    })
  })
}
