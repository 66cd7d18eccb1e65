import { Effect, Option } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { purgeExpired } from "../core/merchant-users/dashboard-purger.js"
import { DashboardSessionRepository } from "../core/merchant-users/dashboard-session-repository.js"
import { MerchantUserRepository } from "../core/merchant-users/merchant-user-repository.js"
import { resumeSession, SESSION_ABSOLUTE_SECONDS, SESSION_IDLE_SECONDS, signIn, signOut } from "../core/merchant-users/sign-in.js"
import { SIGN_IN_FAILURES_PER_ACCOUNT_PER_MINUTE, SIGN_IN_FAILURES_PER_ADDRESS_PER_MINUTE } from "../core/merchant-users/sign-in-throttle.js"
import { createMerchantUser } from "../core/merchant-users/user-admin.js"
import { sha256Hex } from "../core/signing/hmac.js"
import { dashboardKit } from "./suites/dashboard-kit.js"

const kit = dashboardKit("mp-dashboard-sign-in-")
const { run, failure, advance, merchant, activeUser, clock } = kit
afterAll(() => kit.runtime.dispose())

const storedSession = (token: string) => run(Effect.flatMap(DashboardSessionRepository, (sessions) => sessions.find(sha256Hex(token))))
/** Business time now as the store writes it. */
const nowInstant = () => clock.unsafeNow()
/** The next minute's start plus ten seconds: a fresh throttle window with 50 seconds left. */
const nextWindow = () => advance(60 - (Number(clock.unsafeNow() / 1_000_000n) % 60) + 10)

describe("dashboard sign-in", () => {
  it("opens a session whose token is stored only as its hash, and records the sign-in", async () => {
    const { user, email, password } = await activeUser()
    const { sessionToken, user: signedIn } = await run(signIn({ email: `  ${email.toUpperCase()} `, password, address: "192.0.2.1" }))
    expect(sessionToken).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(signedIn).toEqual({ ...user, lastSignInAt: nowInstant() })
    expect(Option.getOrThrow(await run(Effect.flatMap(MerchantUserRepository, (users) => users.findById(user.id)))).lastSignInAt).toBe(nowInstant())
    expect(Option.getOrThrow(await storedSession(sessionToken))).toEqual({
      idHash: sha256Hex(sessionToken), userId: user.id, merchantId: user.merchantId, createdAt: nowInstant(), lastSeenAt: nowInstant()
    })
    expect(await run(resumeSession(sessionToken))).toEqual({ user: signedIn, sessionId: sha256Hex(sessionToken) })
    // Each sign-in is a new session: the old one is not reused.
    const again = await run(signIn({ email, password, address: "192.0.2.1" }))
    expect(again.sessionToken).not.toBe(sessionToken)
  })

  it("answers a wrong password, an unknown email and a user without a password alike, after the same hashing", async () => {
    const { email } = await activeUser()
    const invited = await run(createMerchantUser(await merchant(), { email: "never-set@shop.example", role: "owner" }))
    const timed = async (attempt: Parameters<typeof signIn>[0]) => {
      const started = performance.now()
      const refused = await failure(signIn(attempt))
      return { refused, millis: performance.now() - started }
    }
    const wrong = await timed({ email, password: "not the password", address: "192.0.2.2" })
    const unknown = await timed({ email: "nobody@shop.example", password: "not the password", address: "192.0.2.2" })
    const noPassword = await timed({ email: invited.user.email, password: "not the password", address: "192.0.2.2" })
    expect([wrong.refused, unknown.refused, noPassword.refused]).toEqual([wrong.refused, wrong.refused, wrong.refused])
    expect(wrong.refused).toMatchObject({ _tag: "SignInFailed" })
    // scrypt at 2^15 takes tens of milliseconds; a lookup that found nothing, a fraction of one.
    expect(unknown.millis).toBeGreaterThan(wrong.millis / 4)
    expect(noPassword.millis).toBeGreaterThan(wrong.millis / 4)
  })

  it(`throttles an account after ${SIGN_IN_FAILURES_PER_ACCOUNT_PER_MINUTE} failures in a minute, before the password is looked at, existing or not`, async () => {
    await nextWindow()
    const { email, password } = await activeUser()
    for (const account of [email, "ghost@shop.example"]) {
      for (let i = 0; i < SIGN_IN_FAILURES_PER_ACCOUNT_PER_MINUTE; i++) {
        expect(await failure(signIn({ email: account, password: "wrong password", address: `192.0.2.${10 + i}` }))).toMatchObject({ _tag: "SignInFailed" })
      }
      // The right password now too, from a new address: the account waits out the window.
      expect(await failure(signIn({ email: account, password, address: "192.0.2.99" }))).toEqual(expect.objectContaining({ _tag: "SignInThrottled", retryAfterSeconds: 50 }))
    }
    await advance(50)
    expect((await run(signIn({ email, password, address: "192.0.2.99" }))).user.email).toBe(email)
  })

  it(`throttles an address after ${SIGN_IN_FAILURES_PER_ADDRESS_PER_MINUTE} failures in a minute, whichever accounts they named`, async () => {
    await nextWindow()
    const { email, password } = await activeUser()
    await advance(20)
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ADDRESS_PER_MINUTE; i++) {
      expect(await failure(signIn({ email: `guess-${i}@shop.example`, password: "wrong password", address: "203.0.113.50" }))).toMatchObject({ _tag: "SignInFailed" })
    }
    expect(await failure(signIn({ email, password, address: "203.0.113.50" }))).toMatchObject({ _tag: "SignInThrottled", retryAfterSeconds: 30 })
    expect((await run(signIn({ email, password, address: "203.0.113.51" }))).user.email).toBe(email)
  }, 30_000)

  it("refuses a password longer than any that can be set, even one that starts with the right one", async () => {
    // 1024 code points, 2048 UTF-16 units: the longest password there is.
    const { email, password } = await activeUser("\u{1F600}".repeat(1024))
    expect((await run(signIn({ email, password, address: "192.0.2.8" }))).user.email).toBe(email)
    expect(await failure(signIn({ email, password: `${password}x`, address: "192.0.2.8" }))).toMatchObject({ _tag: "SignInFailed" })
    expect(await failure(signIn({ email, password: password.repeat(1024), address: "192.0.2.8" }))).toMatchObject({ _tag: "SignInFailed" })
  })

  it("refuses a disabled user with the right password, as a wrong one", async () => {
    const { user, email, password } = await activeUser()
    await run(Effect.flatMap(MerchantUserRepository, (users) => users.setDisabled(user.id, true)))
    expect(await failure(signIn({ email, password, address: "192.0.2.3" }))).toMatchObject({ _tag: "SignInFailed" })
  })
})

describe("dashboard sessions", () => {
  it(`end after ${SESSION_IDLE_SECONDS / 60} idle minutes, and last-seen is written at most once a minute`, async () => {
    const { email, password } = await activeUser()
    const { sessionToken } = await run(signIn({ email, password, address: "192.0.2.4" }))
    const signedInAt = nowInstant()
    await advance(59)
    await run(resumeSession(sessionToken))
    expect(Option.getOrThrow(await storedSession(sessionToken)).lastSeenAt).toBe(signedInAt)
    await advance(1)
    await run(resumeSession(sessionToken))
    expect(Option.getOrThrow(await storedSession(sessionToken)).lastSeenAt).toBe(nowInstant())
    await advance(SESSION_IDLE_SECONDS)
    expect((await run(resumeSession(sessionToken))).sessionId).toBe(sha256Hex(sessionToken))
    await advance(SESSION_IDLE_SECONDS + 1)
    expect(await failure(resumeSession(sessionToken))).toMatchObject({ _tag: "SessionInvalid" })
    expect(await storedSession(sessionToken)).toEqual(Option.none())
  })

  it(`end ${SESSION_ABSOLUTE_SECONDS / 3600} hours after sign-in however busy`, async () => {
    const { email, password } = await activeUser()
    const { sessionToken } = await run(signIn({ email, password, address: "192.0.2.5" }))
    for (let elapsed = 0; elapsed < SESSION_ABSOLUTE_SECONDS; elapsed += 20 * 60) {
      await run(resumeSession(sessionToken))
      await advance(20 * 60)
    }
    expect(await run(resumeSession(sessionToken))).toMatchObject({ sessionId: sha256Hex(sessionToken) })
    await advance(1)
    expect(await failure(resumeSession(sessionToken))).toMatchObject({ _tag: "SessionInvalid" })
  })

  it("sign-out ends the session; an unknown token is no session, and signing out of it no error", async () => {
    const { email, password } = await activeUser()
    const { sessionToken } = await run(signIn({ email, password, address: "192.0.2.6" }))
    await run(signOut(sessionToken))
    await run(signOut(sessionToken))
    await run(signOut("never-issued"))
    expect(await failure(resumeSession(sessionToken))).toMatchObject({ _tag: "SessionInvalid" })
    expect(await failure(resumeSession("never-issued"))).toMatchObject({ _tag: "SessionInvalid" })
  })

  it("the purge deletes expired sessions and links, and keeps live ones", async () => {
    const { email, password } = await activeUser()
    const stale = await run(signIn({ email, password, address: "192.0.2.7" }))
    await advance(SESSION_IDLE_SECONDS + 1)
    const live = await run(signIn({ email, password, address: "192.0.2.7" }))
    const removed = await run(purgeExpired)
    expect(removed.sessions).toBeGreaterThanOrEqual(1)
    expect(await storedSession(stale.sessionToken)).toEqual(Option.none())
    expect(Option.isSome(await storedSession(live.sessionToken))).toBe(true)
  })
})
