import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { fromSeconds, plusSeconds } from "../../core/shared/instant.js"
import { EventLog, type NewLoggedEvent } from "../../core/webhooks/event-log.js"
import type { MerchantId } from "../../core/shared/ids.js"
import type { Environment } from "../../core/shared/environment.js"
import { makeMerchant, unique } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

const AT = fromSeconds(1_900_000_000)

const event = (merchantId: MerchantId, environment: Environment, second: number, type = "payment.completed"): NewLoggedEvent => ({
  id: unique("ev"),
  merchantId,
  environment,
  type,
  objectId: unique("trx"),
  body: `{"event":"${type}","amount":"10.00","note":"é ✓"}`,
  signingSecret: type === "payment.refunded" ? "client_secret" : "webhook_secret",
  createdAt: plusSeconds(AT, second)
})

export const eventLogCases = (it: StorageIt) => {
  it.effect("event log: one merchant's events in one environment, after a sequence, in order, exact", () =>
    Effect.gen(function*() {
      const log = yield* EventLog
      const merchant = yield* makeMerchant()
      const other = yield* makeMerchant()
      expect(yield* log.latestSequence(merchant.id, "sandbox")).toBe(0)
      const first = event(merchant.id, "sandbox", 1)
      const second = event(merchant.id, "sandbox", 2, "payment.refunded")
      yield* log.append(first)
      yield* log.append(event(other.id, "sandbox", 1))
      yield* log.append(event(merchant.id, "production", 1))
      yield* log.append(second)
      const all = yield* log.after({ merchantId: merchant.id, environment: "sandbox", afterSequence: 0, limit: 10 })
      expect(all.map(({ sequence: _sequence, ...rest }) => rest)).toEqual([first, second])
      expect(all[0]!.sequence).toBeLessThan(all[1]!.sequence)
      expect(yield* log.latestSequence(merchant.id, "sandbox")).toBe(all[1]!.sequence)
      const rest = yield* log.after({ merchantId: merchant.id, environment: "sandbox", afterSequence: all[0]!.sequence, limit: 10 })
      expect(rest.map((row) => row.id)).toEqual([second.id])
      expect((yield* log.after({ merchantId: merchant.id, environment: "sandbox", afterSequence: 0, limit: 1 })).map((row) => row.id)).toEqual([first.id])
    }))

  it.effect("event log: a purge removes only events older than its time, at most its batch", () =>
    Effect.gen(function*() {
      const log = yield* EventLog
      const merchant = yield* makeMerchant()
      // Far in the past, so no other case's events are older.
      const old = [event(merchant.id, "sandbox", -900_000_000), event(merchant.id, "sandbox", -899_999_999), event(merchant.id, "sandbox", -899_999_998)]
      for (const row of old) yield* log.append(row)
      const kept = event(merchant.id, "sandbox", -1)
      yield* log.append(kept)
      const before = plusSeconds(AT, -800_000_000)
      expect(yield* log.purgeBefore(before, 2)).toBe(2)
      expect(yield* log.purgeBefore(before, 2)).toBe(1)
      expect(yield* log.purgeBefore(before, 2)).toBe(0)
      const left = yield* log.after({ merchantId: merchant.id, environment: "sandbox", afterSequence: 0, limit: 10 })
      expect(left.map((row) => row.id)).toEqual([kept.id])
    }))
}
