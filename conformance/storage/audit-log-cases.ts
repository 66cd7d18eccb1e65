import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type { NewAuditEntry } from "../../core/audit/audit-entry.js"
import { AuditLog } from "../../core/audit/audit-log.js"
import type { MerchantId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"
import { Transactor } from "../../core/shared/transactor.js"
import { makeMerchant, unique } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

const entry = (merchantId: MerchantId | null, overrides: Partial<NewAuditEntry> = {}): NewAuditEntry => ({
  actorType: "admin_token",
  actorId: "admin:0123456789ab",
  sourceAddress: "203.0.113.7",
  operation: "updateMerchant",
  method: "PATCH",
  route: "/admin/v1/merchants/{id}",
  pathParams: merchantId === null ? {} : { id: String(merchantId) },
  merchantId,
  status: 200,
  fields: ["fee_percent", "status"],
  requestId: unique("req"),
  ...overrides
})

// Times near the epoch keep these entries apart from every other case's (and from real time).
const early = (seconds: number) => Instant(BigInt(seconds) * 1_000_000n)

class Boom {
  readonly _tag = "Boom"
}

export const auditLogCases = (it: StorageIt) => {
  it.effect("audit log: an entry is kept whole and read back as written", () =>
    Effect.gen(function*() {
      const log = yield* AuditLog
      const merchant = yield* makeMerchant()
      const written = yield* log.record(entry(merchant.id, { pathParams: { id: String(merchant.id) } }), early(100))
      expect(written).toEqual({ ...entry(merchant.id, { requestId: written.requestId }), id: written.id, createdAt: early(100) })
      expect(yield* log.list({ merchantId: merchant.id, limit: 10 })).toEqual([written])
      // A change of no merchant, asked without a request id, reads back with nulls.
      const bare = yield* log.record(entry(null, { requestId: null, fields: [], operation: "runScheduler" }), early(101))
      expect(bare).toMatchObject({ merchantId: null, requestId: null, fields: [], pathParams: {} })
    }))

  it.effect("audit log: newest first by time then id; merchant, since and until filter; a position continues a page", () =>
    Effect.gen(function*() {
      const log = yield* AuditLog
      const merchant = yield* makeMerchant()
      const other = yield* makeMerchant()
      const a = yield* log.record(entry(merchant.id, { operation: "a" }), early(200))
      const b = yield* log.record(entry(merchant.id, { operation: "b" }), early(300))
      const c = yield* log.record(entry(merchant.id, { operation: "c" }), early(300))
      yield* log.record(entry(other.id, { operation: "other" }), early(300))
      const d = yield* log.record(entry(merchant.id, { operation: "d" }), early(400))

      const ops = (list: ReadonlyArray<{ readonly operation: string }>) => list.map((item) => item.operation)
      expect(ops(yield* log.list({ merchantId: merchant.id, limit: 10 }))).toEqual(["d", "c", "b", "a"])
      expect(ops(yield* log.list({ merchantId: merchant.id, since: early(300), limit: 10 }))).toEqual(["d", "c", "b"])
      expect(ops(yield* log.list({ merchantId: merchant.id, since: early(300), until: early(400), limit: 10 }))).toEqual(["c", "b"])
      expect(ops(yield* log.list({ merchantId: merchant.id, limit: 2 }))).toEqual(["d", "c"])
      expect(ops(yield* log.list({ merchantId: merchant.id, before: { createdAt: c.createdAt, id: c.id }, limit: 10 }))).toEqual(["b", "a"])
      expect(ops(yield* log.list({ merchantId: merchant.id, before: { createdAt: d.createdAt, id: d.id }, limit: 1 }))).toEqual(["c"])
      // Without a merchant, every merchant's entries (and none) are listed.
      const all = yield* log.list({ since: early(200), until: early(401), limit: 1_000 })
      expect(ops(all).filter((op) => ["a", "b", "c", "d", "other"].includes(op))).toHaveLength(5)
      expect(all.map((item) => item.id)).toContain(a.id)
      expect(b.id).toBeLessThan(c.id)
    }))

  it.effect("audit log: the actor type filters, so a merchant's owners see their dashboard's changes apart from the operator's", () =>
    Effect.gen(function*() {
      const log = yield* AuditLog
      const merchant = yield* makeMerchant()
      yield* log.record(entry(merchant.id, { operation: "updateMerchant" }), early(700))
      const refund = yield* log.record(entry(merchant.id, { actorType: "merchant_user", actorId: "owner@shop.example", operation: "refundPayment" }), early(701))
      expect(yield* log.list({ merchantId: merchant.id, actorType: "merchant_user", limit: 10 })).toEqual([refund])
      expect((yield* log.list({ merchantId: merchant.id, actorType: "admin_token", limit: 10 })).map((item) => item.operation)).toEqual(["updateMerchant"])
    }))

  it.effect("audit log: an entry written in a transaction that fails is rolled back with it", () =>
    Effect.gen(function*() {
      const log = yield* AuditLog
      const { withTransaction } = yield* Transactor
      const merchant = yield* makeMerchant()
      const failure = yield* Effect.flip(withTransaction(Effect.zipRight(log.record(entry(merchant.id), early(500)), Effect.fail(new Boom()))))
      expect(failure).toBeInstanceOf(Boom)
      expect(yield* log.list({ merchantId: merchant.id, limit: 10 })).toEqual([])
      yield* withTransaction(log.record(entry(merchant.id), early(500)))
      expect(yield* log.list({ merchantId: merchant.id, limit: 10 })).toHaveLength(1)
    }))

  it.effect("audit log: a merchant id that names no merchant is kept (a refused call may name one)", () =>
    Effect.gen(function*() {
      const log = yield* AuditLog
      const nobody = 987_654_321_012 as MerchantId
      const written = yield* log.record(entry(nobody, { status: 404 }), early(600))
      expect((yield* log.list({ merchantId: nobody, limit: 10 })).map((item) => item.id)).toContain(written.id)
    }))
}
