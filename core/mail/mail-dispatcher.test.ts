import * as Either from "effect/Either"
import { describe, expect, it } from "vitest"
import { Instant } from "../shared/instant.js"
import { MerchantId } from "../shared/ids.js"
import type { OutboxMail } from "./mail.js"
import { progressAfter, withoutAddresses } from "./mail-dispatcher.js"

const at = Instant(1_000_000_000n)
const policy = { retryDelaysMillis: [60_000, 300_000], leaseMillis: 300_000 }
const mail = (attempts: number): OutboxMail => ({
  id: "m1", merchantId: MerchantId(1), environment: "production", to: "a@example.com", locale: null,
  kind: "dashboard_set_password", facts: { userEmail: "a@example.com", token: "secret", expiresAt: "2026-01-01T00:00:00Z", invited: true },
  status: "pending", attempts, nextAttemptAt: at, lastError: null, sentAt: null, createdAt: at, updatedAt: at
})
const refused = (permanent: boolean) => Either.left({ reason: "451 try later", permanent })

describe("what an attempt leaves on a mail", () => {
  it("sent: no next attempt, and the secret facts wiped", () => {
    const progress = progressAfter(mail(0), Either.right(undefined), at, policy)
    expect(progress).toMatchObject({ status: "sent", attempts: 1, nextAttemptAt: null, sentAt: at, lastError: null })
    expect(progress.content.kind === "dashboard_set_password" && progress.content.facts.token).toBe("")
  })

  it("refused for a while: retried after the policy's next delay, the secret kept for the retry", () => {
    const first = progressAfter(mail(0), refused(false), at, policy)
    expect(first).toMatchObject({ status: "pending", attempts: 1, nextAttemptAt: Instant(at + 60_000_000n), lastError: "451 try later" })
    expect(first.content.kind === "dashboard_set_password" && first.content.facts.token).toBe("secret")
    expect(progressAfter(mail(1), refused(false), at, policy).nextAttemptAt).toBe(Instant(at + 300_000_000n))
  })

  it("gives up when the delays run out, or at once on a permanent refusal", () => {
    expect(progressAfter(mail(2), refused(false), at, policy)).toMatchObject({ status: "failed", attempts: 3, nextAttemptAt: null })
    const permanent = progressAfter(mail(0), refused(true), at, policy)
    expect(permanent).toMatchObject({ status: "failed", attempts: 1, nextAttemptAt: null })
    expect(permanent.content.kind === "dashboard_set_password" && permanent.content.facts.token).toBe("")
  })
})

describe("what a failed attempt's log line says", () => {
  it("the server's reply without the addresses it repeats", () => {
    expect(withoutAddresses("550 5.1.1 <ada@example.com>: Recipient address rejected; cc bob@shop.example"))
      .toBe("550 5.1.1 <address>: Recipient address rejected; cc <address>")
    expect(withoutAddresses(null)).toBe("")
  })
})
