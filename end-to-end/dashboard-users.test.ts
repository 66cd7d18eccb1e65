import { Effect, Either, Option } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { DashboardSessionRepository } from "../core/merchant-users/dashboard-session-repository.js"
import { MerchantUserRepository } from "../core/merchant-users/merchant-user-repository.js"
import { PASSWORD_LINK_SECONDS, passwordLinkUser, setPasswordWithLink } from "../core/merchant-users/password-link.js"
import { resumeSession, signIn } from "../core/merchant-users/sign-in.js"
import {
  createMerchantUser, deleteMerchantUser, issuePasswordLink, listMerchantUsers, setMerchantUserDisabled
} from "../core/merchant-users/user-admin.js"
import { MerchantId } from "../core/shared/ids.js"
import { sha256Hex } from "../core/signing/hmac.js"
import { dashboardKit } from "./suites/dashboard-kit.js"

const kit = dashboardKit("mp-dashboard-users-")
const { run, failure, advance, merchant, activeUser } = kit
afterAll(() => kit.runtime.dispose())

const storedUser = (id: string) => run(Effect.flatMap(MerchantUserRepository, (users) => users.findById(id)))

describe("dashboard users: admin", () => {
  it("creates an invited user with a one-time link, its email trimmed and lower-cased, unique across merchants", async () => {
    const merchantId = await merchant()
    const { user, passwordToken } = await run(createMerchantUser(merchantId, { email: "  Ann.Lee@Shop.Example ", role: "viewer" }))
    expect(user).toMatchObject({ merchantId, email: "ann.lee@shop.example", role: "viewer", status: "invited", lastSignInAt: null })
    expect(passwordToken).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // Only the token's hash is kept.
    const link = await run(Effect.flatMap(MerchantUserRepository, (users) => users.findPasswordLink(sha256Hex(passwordToken))))
    expect(Option.getOrThrow(link).userId).toBe(user.id)
    const taken = await failure(createMerchantUser(await merchant(), { email: "ANN.LEE@shop.example", role: "owner" }))
    expect(taken).toMatchObject({ _tag: "MerchantUserEmailTaken", email: "ann.lee@shop.example" })
    expect(await run(listMerchantUsers(merchantId))).toEqual([user])
  })

  it("refuses a bad email or role with every field named, and an unknown merchant", async () => {
    const merchantId = await merchant()
    const refused = await failure(createMerchantUser(merchantId, { email: "not an email", role: "admin" }))
    expect(refused).toMatchObject({ _tag: "ValidationFailed", code: "VALIDATION_FAILED" })
    expect(Object.keys(refused._tag === "ValidationFailed" ? refused.errors : {})).toEqual(["email", "role"])
    const long = `${"a".repeat(64)}@${"b".repeat(60)}.${"c".repeat(60)}.${"d".repeat(60)}.example`
    expect(long.length).toBeGreaterThan(254)
    expect(await failure(createMerchantUser(merchantId, { email: long, role: "owner" }))).toMatchObject({
      errors: { email: ["The email field must not be greater than 254 characters."] }
    })
    expect(await failure(createMerchantUser(merchantId, { email: 42, role: undefined }))).toMatchObject({
      errors: { email: ["The email field must be a string."], role: ["The role field is required."] }
    })
    expect(await failure(createMerchantUser(MerchantId(987_654_321), { email: "x@shop.example", role: "owner" }))).toMatchObject({ _tag: "MerchantNotFound" })
    expect(await run(listMerchantUsers(merchantId))).toEqual([])
  })

  it("treats another merchant's user as not found", async () => {
    const { user } = await activeUser()
    const other = await merchant()
    const refusals = [
      await failure(issuePasswordLink(other, user.id)),
      await failure(setMerchantUserDisabled(other, user.id, true)),
      await failure(deleteMerchantUser(other, user.id))
    ]
    for (const refused of refusals) expect(refused).toMatchObject({ _tag: "MerchantUserNotFound", userId: user.id })
    expect(Option.getOrThrow(await storedUser(user.id)).status).toBe("active")
  })

  it("disabling ends every session and refuses sign-in; enabling makes it active again, or keeps a user without a password invited", async () => {
    // A viewer: the merchant's last active owner is never disabled or deleted (user-admin.ts).
    const { user, email, password } = await activeUser(undefined, "viewer")
    const { sessionToken } = await run(signIn({ email, password, address: "198.51.100.1" }))
    expect((await run(setMerchantUserDisabled(user.merchantId, user.id, true))).status).toBe("disabled")
    expect(await failure(resumeSession(sessionToken))).toMatchObject({ _tag: "SessionInvalid" })
    expect(await failure(signIn({ email, password, address: "198.51.100.1" }))).toMatchObject({ _tag: "SignInFailed" })
    expect((await run(setMerchantUserDisabled(user.merchantId, user.id, false))).status).toBe("active")
    expect((await run(signIn({ email, password, address: "198.51.100.1" }))).user.id).toBe(user.id)
    const invited = await run(createMerchantUser(user.merchantId, { email: `invited-${user.id}@shop.example`, role: "viewer" }))
    expect((await run(setMerchantUserDisabled(user.merchantId, invited.user.id, true))).status).toBe("disabled")
    expect((await run(setMerchantUserDisabled(user.merchantId, invited.user.id, false))).status).toBe("invited")
  })

  it("deleting a user ends its sessions and voids its link", async () => {
    const { user, email, password } = await activeUser(undefined, "viewer")
    const { sessionToken } = await run(signIn({ email, password, address: "198.51.100.2" }))
    const { passwordToken } = await run(issuePasswordLink(user.merchantId, user.id))
    await run(deleteMerchantUser(user.merchantId, user.id))
    expect(await failure(resumeSession(sessionToken))).toMatchObject({ _tag: "SessionInvalid" })
    expect(await failure(passwordLinkUser(passwordToken))).toMatchObject({ _tag: "PasswordLinkInvalid" })
    expect(await failure(deleteMerchantUser(user.merchantId, user.id))).toMatchObject({ _tag: "MerchantUserNotFound" })
    expect(await run(listMerchantUsers(user.merchantId))).toEqual([])
  })
})

describe("dashboard users: set-password links", () => {
  it("shows whom a link is for without using it; a too-short password leaves it usable; a good one activates the user, once", async () => {
    const { user, passwordToken } = await run(createMerchantUser(await merchant(), { email: "link-user@shop.example", role: "owner" }))
    expect(await run(passwordLinkUser(passwordToken))).toEqual(user)
    expect(await run(passwordLinkUser(passwordToken))).toEqual(user)
    for (const short of ["", "eleven char", "ünïcödé pw"]) {
      expect(await failure(setPasswordWithLink(passwordToken, short))).toMatchObject({
        _tag: "ValidationFailed",
        errors: { password: ["The password must be at least 12 characters long."] }
      })
    }
    expect(await failure(setPasswordWithLink(passwordToken, "x".repeat(1025)))).toMatchObject({ errors: { password: ["The password must be at most 1024 characters long."] } })
    const active = await run(setPasswordWithLink(passwordToken, "twelve chars"))
    expect(active).toEqual({ ...user, status: "active" })
    expect(Option.getOrThrow(await run(Effect.flatMap(MerchantUserRepository, (users) => users.findByEmail(user.email)))).passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/)
    expect(await failure(setPasswordWithLink(passwordToken, "another password"))).toMatchObject({ _tag: "PasswordLinkInvalid" })
    expect(await failure(passwordLinkUser(passwordToken))).toMatchObject({ _tag: "PasswordLinkInvalid" })
    expect(await failure(passwordLinkUser("no-such-token"))).toMatchObject({ _tag: "PasswordLinkInvalid" })
  })

  it("a link works for 24 hours, and a new one voids the earlier", async () => {
    const { user, passwordToken: first } = await run(createMerchantUser(await merchant(), { email: "expiring@shop.example", role: "owner" }))
    const { passwordToken: second } = await run(issuePasswordLink(user.merchantId, user.id))
    expect(await failure(passwordLinkUser(first))).toMatchObject({ _tag: "PasswordLinkInvalid" })
    await advance(PASSWORD_LINK_SECONDS - 1)
    expect((await run(passwordLinkUser(second))).id).toBe(user.id)
    await advance(1)
    expect(await failure(passwordLinkUser(second))).toMatchObject({ _tag: "PasswordLinkInvalid" })
    expect(await failure(setPasswordWithLink(second, "a long enough password"))).toMatchObject({ _tag: "PasswordLinkInvalid" })
    expect(Option.getOrThrow(await storedUser(user.id)).status).toBe("invited")
  })

  it("of two uses of one link at once, one sets the password and the other is refused", async () => {
    const { passwordToken } = await run(createMerchantUser(await merchant(), { email: "racing@shop.example", role: "owner" }))
    const results = await Promise.all([
      run(Effect.either(setPasswordWithLink(passwordToken, "first password!"))),
      run(Effect.either(setPasswordWithLink(passwordToken, "second password")))
    ])
    expect(results.filter(Either.isRight)).toHaveLength(1)
    expect(results.filter(Either.isLeft).map((result) => result.left._tag)).toEqual(["PasswordLinkInvalid"])
  })

  it("setting a password ends every session the user had; a disabled user's link opens nothing", async () => {
    const { user, email, password } = await activeUser(undefined, "viewer")
    const { sessionToken } = await run(signIn({ email, password, address: "198.51.100.3" }))
    const { passwordToken } = await run(issuePasswordLink(user.merchantId, user.id))
    await run(setPasswordWithLink(passwordToken, "a brand new password"))
    expect(await failure(resumeSession(sessionToken))).toMatchObject({ _tag: "SessionInvalid" })
    expect(await run(Effect.flatMap(DashboardSessionRepository, (sessions) => sessions.find(sha256Hex(sessionToken))))).toEqual(Option.none())
    const { passwordToken: next } = await run(issuePasswordLink(user.merchantId, user.id))
    await run(setMerchantUserDisabled(user.merchantId, user.id, true))
    expect(await failure(passwordLinkUser(next))).toMatchObject({ _tag: "PasswordLinkInvalid" })
    expect(await failure(setPasswordWithLink(next, "yet another password"))).toMatchObject({ _tag: "PasswordLinkInvalid" })
    expect(Option.getOrThrow(await storedUser(user.id)).status).toBe("disabled")
  })
})
