import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { OutboxMail } from "../../core/mail/mail.js"
import type { MailFacts } from "../../core/mail/mail-kind.js"
import { MailOutbox } from "../../core/mail/mail-outbox.js"
import { Instant, now, plusSeconds } from "../../core/shared/instant.js"
import type { MerchantId } from "../../core/shared/ids.js"
import { makeMerchant, unique } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

const receipt: MailFacts["payment_receipt"] = {
  subscriptionId: "sub", invoiceId: "inv", invoiceReference: "INV-1", description: "Plan — “Gold” 🌟",
  amount: "12345678901234567.12345678", currency: "USD", paidAt: "2026-01-01T00:00:00.000000Z", trxId: null
}

/** A mail with a chosen due time; times near the epoch keep these rows apart from every other case's. */
const mailOf = (merchantId: MerchantId, nextAttemptAt: Instant | null, at: Instant): OutboxMail => ({
  id: unique("mail"),
  merchantId,
  environment: "production",
  to: "ada@example.com",
  kind: "payment_receipt",
  facts: receipt,
  locale: "fr",
  status: nextAttemptAt === null ? "captured" : "pending",
  attempts: 0,
  nextAttemptAt,
  lastError: null,
  sentAt: null,
  createdAt: at,
  updatedAt: at
})

export const mailOutboxCases = (it: StorageIt) => {
  it.effect("mail outbox: round trip of every field (facts as written), by merchant; another merchant's is not found", () =>
    Effect.gen(function*() {
      const outbox = yield* MailOutbox
      const merchant = yield* makeMerchant()
      const other = yield* makeMerchant()
      const mail = mailOf(merchant.id, Instant(5_000n), yield* now)
      yield* outbox.enqueue(mail)
      expect(yield* outbox.find(merchant.id, mail.id)).toEqual(Option.some(mail))
      expect(yield* outbox.find(other.id, mail.id)).toEqual(Option.none())
      expect(yield* outbox.listForMerchant(merchant.id, "production", 10)).toEqual([mail])
      expect(yield* outbox.listForMerchant(merchant.id, "sandbox", 10)).toEqual([])
    }))

  it.effect("mail outbox: due pending mail earliest first; a claim is one host's until its lease lapses; a record frees it", () =>
    Effect.gen(function*() {
      const outbox = yield* MailOutbox
      const merchant = yield* makeMerchant()
      const at = yield* now
      const second = mailOf(merchant.id, Instant(2_000n), at)
      const first = mailOf(merchant.id, Instant(1_000n), at)
      for (const mail of [second, first, mailOf(merchant.id, Instant(3_000n), at), mailOf(merchant.id, null, at)]) yield* outbox.enqueue(mail)
      const mine = (rows: ReadonlyArray<OutboxMail>) => rows.filter((row) => row.merchantId === merchant.id).map((row) => row.id)
      expect(mine(yield* outbox.listDue(Instant(2_500n), at, 100))).toEqual([first.id, second.id])
      expect(yield* outbox.claim(first.id, Instant(1_000n), at, plusSeconds(at, 60))).toBe(true)
      // Claimed: not due to anyone else, and a second claim of it fails, until the lease lapses.
      expect(yield* outbox.claim(first.id, Instant(1_000n), at, plusSeconds(at, 60))).toBe(false)
      expect(mine(yield* outbox.listDue(Instant(2_500n), at, 100))).toEqual([second.id])
      expect(mine(yield* outbox.listDue(Instant(2_500n), plusSeconds(at, 61), 100))).toEqual([first.id, second.id])
      // A claim names the due time it read: one made on a stale read fails.
      expect(yield* outbox.claim(second.id, Instant(1_999n), at, plusSeconds(at, 60))).toBe(false)
      yield* outbox.record(first.id, {
        status: "sent", attempts: 1, nextAttemptAt: null, lastError: null, sentAt: at,
        content: { kind: "payment_receipt", facts: { ...receipt, description: "wiped" } }, at
      })
      const sent = Option.getOrThrow(yield* outbox.find(merchant.id, first.id))
      expect(sent).toMatchObject({ status: "sent", attempts: 1, nextAttemptAt: null, sentAt: at })
      expect(sent.kind === "payment_receipt" && sent.facts.description).toBe("wiped")
      expect(mine(yield* outbox.listDue(Instant(2_500n), plusSeconds(at, 61), 100))).toEqual([second.id])
    }))
}
