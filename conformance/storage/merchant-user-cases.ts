import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { DashboardSessionRepository, type DashboardSession } from "../../core/merchant-users/dashboard-session-repository.js"
import { MerchantUserRepository, type NewMerchantUser } from "../../core/merchant-users/merchant-user-repository.js"
import type { MerchantId } from "../../core/shared/ids.js"
import { Instant, now, plusSeconds } from "../../core/shared/instant.js"
import { Transactor } from "../../core/shared/transactor.js"
import { makeMerchant, unique } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

const newUser = (merchantId: MerchantId, createdAt: Instant, overrides: Partial<NewMerchantUser> = {}): NewMerchantUser => ({
  id: unique("user"),
  merchantId,
  email: `${unique("ann")}@shop.example`.toLowerCase(),
  role: "owner",
  createdAt,
  ...overrides
})

// Times near the epoch keep the expiry cases' rows apart from every other case's (and from real time).
const early = (seconds: number) => Instant(BigInt(seconds) * 1_000_000n)

const session = (userId: string, merchantId: MerchantId, createdAt: Instant, lastSeenAt = createdAt): DashboardSession =>
  ({ idHash: unique("session"), userId, merchantId, createdAt, lastSeenAt })

/** The merchant dashboard's users, their one-time set-password links and their sessions. */
export const merchantUserCases = (it: StorageIt) => {
  it.effect("merchant users: created invited without a password, found by id and by email, listed per merchant oldest first", () =>
    Effect.gen(function*() {
      const repo = yield* MerchantUserRepository
      const merchant = yield* makeMerchant()
      const other = yield* makeMerchant()
      const at = yield* now
      const first = yield* repo.create(newUser(merchant.id, at, { role: "viewer" }))
      const second = yield* repo.create(newUser(merchant.id, plusSeconds(at, 1)))
      yield* repo.create(newUser(other.id, at))
      expect(first).toMatchObject({ merchantId: merchant.id, role: "viewer", status: "invited", createdAt: at, lastSignInAt: null })
      expect(yield* repo.findById(first.id)).toEqual(Option.some(first))
      expect(yield* repo.findByEmail(first.email)).toEqual(Option.some({ user: first, passwordHash: null }))
      expect(yield* repo.findById(unique("nobody"))).toEqual(Option.none())
      expect(yield* repo.findByEmail("nobody@shop.example")).toEqual(Option.none())
      expect(yield* repo.listByMerchant(merchant.id)).toEqual([first, second])
    }))

  it.effect("merchant users: an email is unique across every merchant", () =>
    Effect.gen(function*() {
      const repo = yield* MerchantUserRepository
      const at = yield* now
      const taken = yield* repo.create(newUser((yield* makeMerchant()).id, at))
      const again = yield* Effect.either(repo.create(newUser((yield* makeMerchant()).id, at, { email: taken.email })))
      expect(Either.isLeft(again) && again.left._tag).toBe("MerchantUserEmailTaken")
      expect(yield* repo.findByEmail(taken.email)).toEqual(Option.some({ user: taken, passwordHash: null }))
    }))

  it.effect("merchant users: a password makes a user active, never a disabled one; enabling restores active or invited", () =>
    Effect.gen(function*() {
      const repo = yield* MerchantUserRepository
      const merchant = yield* makeMerchant()
      const at = yield* now
      const user = yield* repo.create(newUser(merchant.id, at))
      const invited = yield* repo.create(newUser(merchant.id, at))
      expect(Option.getOrThrow(yield* repo.setPassword(user.id, "scrypt$hash-1")).status).toBe("active")
      expect(Option.getOrThrow(yield* repo.findByEmail(user.email)).passwordHash).toBe("scrypt$hash-1")
      expect(Option.getOrThrow(yield* repo.setDisabled(user.id, true)).status).toBe("disabled")
      expect(Option.getOrThrow(yield* repo.setPassword(user.id, "scrypt$hash-2")).status).toBe("disabled")
      expect(Option.getOrThrow(yield* repo.setDisabled(user.id, false)).status).toBe("active")
      expect(Option.getOrThrow(yield* repo.setDisabled(invited.id, true)).status).toBe("disabled")
      expect(Option.getOrThrow(yield* repo.setDisabled(invited.id, false)).status).toBe("invited")
      expect(yield* repo.setDisabled(unique("nobody"), true)).toEqual(Option.none())
      expect(yield* repo.setPassword(unique("nobody"), "scrypt$x")).toEqual(Option.none())
      yield* repo.recordSignIn(user.id, plusSeconds(at, 5))
      expect(Option.getOrThrow(yield* repo.findById(user.id)).lastSignInAt).toBe(plusSeconds(at, 5))
    }))

  it.effect("password links: a new link voids the user's earlier ones; finding does not use one up; consuming does, once", () =>
    Effect.gen(function*() {
      const repo = yield* MerchantUserRepository
      const at = yield* now
      const user = yield* repo.create(newUser((yield* makeMerchant()).id, at))
      const older = { tokenHash: unique("link"), userId: user.id, expiresAt: plusSeconds(at, 3600) }
      const newer = { ...older, tokenHash: unique("link") }
      yield* repo.createPasswordLink(older)
      yield* repo.createPasswordLink(newer)
      expect(yield* repo.findPasswordLink(older.tokenHash)).toEqual(Option.none())
      expect(yield* repo.findPasswordLink(newer.tokenHash)).toEqual(Option.some(newer))
      expect(yield* repo.findPasswordLink(newer.tokenHash)).toEqual(Option.some(newer))
      expect(yield* repo.consumePasswordLink(newer.tokenHash)).toEqual(Option.some(newer))
      expect(yield* repo.consumePasswordLink(newer.tokenHash)).toEqual(Option.none())
      expect(yield* repo.findPasswordLink(newer.tokenHash)).toEqual(Option.none())
    }))

  it.effect("password links: of two consumes of one link at once, exactly one gets it", () =>
    Effect.gen(function*() {
      const repo = yield* MerchantUserRepository
      const at = yield* now
      for (let round = 0; round < 5; round++) {
        const user = yield* repo.create(newUser((yield* makeMerchant()).id, at))
        const link = { tokenHash: unique("link"), userId: user.id, expiresAt: plusSeconds(at, 3600) }
        yield* repo.createPasswordLink(link)
        const results = yield* Effect.all([repo.consumePasswordLink(link.tokenHash), repo.consumePasswordLink(link.tokenHash)], { concurrency: 2 })
        expect(results.filter(Option.isSome)).toEqual([Option.some(link)])
      }
    }))

  it.effect("password links: the expiry is kept exactly, and the expired ones are deleted by a purge", () =>
    Effect.gen(function*() {
      const repo = yield* MerchantUserRepository
      const user = yield* repo.create(newUser((yield* makeMerchant()).id, yield* now))
      const other = yield* repo.create(newUser((yield* makeMerchant()).id, yield* now))
      const expired = { tokenHash: unique("link"), userId: user.id, expiresAt: Instant(early(1_000) + 7n) }
      const live = { tokenHash: unique("link"), userId: other.id, expiresAt: early(2_000) }
      yield* repo.createPasswordLink(expired)
      yield* repo.createPasswordLink(live)
      expect(yield* repo.findPasswordLink(expired.tokenHash)).toEqual(Option.some(expired))
      expect(yield* repo.deleteExpiredLinks(early(1_500))).toBeGreaterThanOrEqual(1)
      expect(yield* repo.findPasswordLink(expired.tokenHash)).toEqual(Option.none())
      expect(yield* repo.findPasswordLink(live.tokenHash)).toEqual(Option.some(live))
    }))

  it.effect("dashboard sessions: found by hash, touched forward only, deleted one by one or all of a user's", () =>
    Effect.gen(function*() {
      const sessions = yield* DashboardSessionRepository
      const users = yield* MerchantUserRepository
      const merchant = yield* makeMerchant()
      const at = yield* now
      const user = yield* users.create(newUser(merchant.id, at))
      const other = yield* users.create(newUser(merchant.id, at))
      const [a, b, c] = [session(user.id, merchant.id, at), session(user.id, merchant.id, at), session(other.id, merchant.id, at)]
      for (const s of [a, b, c]) yield* sessions.create(s)
      expect(yield* sessions.find(a.idHash)).toEqual(Option.some(a))
      expect(yield* sessions.find(unique("session"))).toEqual(Option.none())
      yield* sessions.touch(a.idHash, plusSeconds(at, 90))
      yield* sessions.touch(a.idHash, plusSeconds(at, 60))
      expect(yield* sessions.find(a.idHash)).toEqual(Option.some({ ...a, lastSeenAt: plusSeconds(at, 90) }))
      yield* sessions.delete(a.idHash)
      yield* sessions.delete(a.idHash)
      expect(yield* sessions.find(a.idHash)).toEqual(Option.none())
      yield* sessions.create(a)
      expect(yield* sessions.deleteForUser(user.id)).toBe(2)
      expect([yield* sessions.find(a.idHash), yield* sessions.find(b.idHash)]).toEqual([Option.none(), Option.none()])
      expect(yield* sessions.find(c.idHash)).toEqual(Option.some(c))
    }))

  it.effect("dashboard sessions: a purge deletes those idle since before one instant or created before another", () =>
    Effect.gen(function*() {
      const sessions = yield* DashboardSessionRepository
      const merchant = yield* makeMerchant()
      const user = yield* (yield* MerchantUserRepository).create(newUser(merchant.id, yield* now))
      const idle = session(user.id, merchant.id, early(10_000), early(10_100))
      const old = session(user.id, merchant.id, early(9_000), early(12_000))
      const fresh = session(user.id, merchant.id, early(10_000), early(12_000))
      for (const s of [idle, old, fresh]) yield* sessions.create(s)
      expect(yield* sessions.deleteExpired(early(11_000), early(9_500))).toBeGreaterThanOrEqual(2)
      expect([yield* sessions.find(idle.idHash), yield* sessions.find(old.idHash)]).toEqual([Option.none(), Option.none()])
      expect(yield* sessions.find(fresh.idHash)).toEqual(Option.some(fresh))
    }))

  it.effect("merchant users: deleting a user deletes its links and sessions, and only its own", () =>
    Effect.gen(function*() {
      const users = yield* MerchantUserRepository
      const sessions = yield* DashboardSessionRepository
      const merchant = yield* makeMerchant()
      const at = yield* now
      const user = yield* users.create(newUser(merchant.id, at))
      const other = yield* users.create(newUser(merchant.id, at))
      const link = { tokenHash: unique("link"), userId: user.id, expiresAt: plusSeconds(at, 3600) }
      const otherLink = { ...link, tokenHash: unique("link"), userId: other.id }
      const mine = session(user.id, merchant.id, at)
      const theirs = session(other.id, merchant.id, at)
      yield* users.createPasswordLink(link)
      yield* users.createPasswordLink(otherLink)
      yield* sessions.create(mine)
      yield* sessions.create(theirs)
      expect(yield* users.delete(user.id)).toBe(true)
      expect(yield* users.delete(user.id)).toBe(false)
      expect(yield* users.findById(user.id)).toEqual(Option.none())
      expect(yield* users.findPasswordLink(link.tokenHash)).toEqual(Option.none())
      expect(yield* sessions.find(mine.idHash)).toEqual(Option.none())
      expect(yield* users.findPasswordLink(otherLink.tokenHash)).toEqual(Option.some(otherLink))
      expect(yield* sessions.find(theirs.idHash)).toEqual(Option.some(theirs))
      expect(yield* users.listByMerchant(merchant.id)).toEqual([other])
    }))

  it.effect("merchant users: the active owners are listed, and held by a transaction: two removals at once leave one owner", () =>
    Effect.gen(function*() {
      const repo = yield* MerchantUserRepository
      const { withTransaction } = yield* Transactor
      const merchant = yield* makeMerchant()
      const at = yield* now
      const [a, b] = [yield* repo.create(newUser(merchant.id, at)), yield* repo.create(newUser(merchant.id, at))]
      const viewer = yield* repo.create(newUser(merchant.id, at, { role: "viewer" }))
      yield* repo.create(newUser(merchant.id, at))
      yield* repo.create(newUser((yield* makeMerchant()).id, at))
      for (const user of [a, b, viewer]) yield* repo.setPassword(user.id, "scrypt$hash")
      expect([...yield* repo.activeOwnerIds(merchant.id)].sort()).toEqual([a.id, b.id].sort())
      // Each removal counts the owners and takes one away only if another stays; the pause lets the
      // other removal read meanwhile, which must wait for this one's outcome rather than count both.
      const removeUnlessLast = (id: string) =>
        withTransaction(Effect.gen(function*() {
          if ((yield* repo.activeOwnerIds(merchant.id)).length < 2) return false
          yield* Effect.sleep("50 millis")
          yield* repo.setDisabled(id, true)
          return true
        }))
      const removed = yield* Effect.all([removeUnlessLast(a.id), removeUnlessLast(b.id)], { concurrency: 2 })
      expect(removed.filter((done) => done)).toHaveLength(1)
      expect(yield* repo.activeOwnerIds(merchant.id)).toHaveLength(1)
    }))

  it.effect("merchant users: a password hash is replaced only while it is still the one expected", () =>
    Effect.gen(function*() {
      const repo = yield* MerchantUserRepository
      const user = yield* repo.create(newUser((yield* makeMerchant()).id, yield* now))
      yield* repo.setPassword(user.id, "scrypt$old")
      expect(yield* repo.replacePasswordHash(user.id, "scrypt$old", "scrypt$rehashed")).toBe(true)
      expect(Option.getOrThrow(yield* repo.findByEmail(user.email)).passwordHash).toBe("scrypt$rehashed")
      // A password set meanwhile is never overwritten with a re-hash of the old one.
      yield* repo.setPassword(user.id, "scrypt$new")
      expect(yield* repo.replacePasswordHash(user.id, "scrypt$rehashed", "scrypt$stale")).toBe(false)
      expect(Option.getOrThrow(yield* repo.findByEmail(user.email))).toEqual({ user: { ...user, status: "active" }, passwordHash: "scrypt$new" })
      expect(yield* repo.replacePasswordHash(unique("nobody"), "scrypt$new", "scrypt$x")).toBe(false)
    }))
}
