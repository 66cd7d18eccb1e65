import { HttpApp } from "@effect/platform"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { passwordLinkUser, setPasswordWithLink } from "../../../core/merchant-users/password-link.js"
import { signIn } from "../../../core/merchant-users/sign-in.js"
import { makeCurrencyCatalog } from "../../../core/money/currencies.js"
import { defaultSiteSettings } from "../../../core/settings/site-settings.js"
import { defaultWebhookConfig, kitLayer } from "../../../hosts/kit-layer.js"
import { httpApp } from "../app.js"

const TOKEN = "admin-token-of-the-dashboard-users-test"
const BASE = "https://pay.example/payments"

const currencies = makeCurrencyCatalog({ cryptoCodes: [] })
if (currencies._tag === "Left") throw currencies.left

const runtime = ManagedRuntime.make(kitLayer({
  store: { kind: "sqlite", filename: join(mkdtempSync(join(tmpdir(), "mp-admin-users-")), "store.db") },
  masterKey: new Uint8Array(32).fill(9),
  adminToken: TOKEN,
  settings: defaultSiteSettings,
  currencies: currencies.right,
  baseUrl: BASE,
  checkoutLifetimeSeconds: 3600,
  webhooks: defaultWebhookConfig,
  backgroundJobs: false
}))

let handler: (request: Request) => Promise<Response>
beforeAll(async () => {
  handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp)
})
afterAll(() => runtime.dispose())

const call = async (method: string, path: string, body?: unknown, token = TOKEN) => {
  const response = await handler(new Request(`http://kit.test/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  }))
  const text = await response.text()
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
}

const tokenOf = (url: string) => {
  expect(url).toMatch(new RegExp(`^${BASE}/dashboard/set-password/[A-Za-z0-9_-]{43}$`))
  return url.slice(url.lastIndexOf("/") + 1)
}

let merchantId: number
let otherMerchantId: number

beforeAll(async () => {
  merchantId = (await call("POST", "/merchants", { name: "Dashboard Books" })).body.id
  otherMerchantId = (await call("POST", "/merchants", { name: "Someone Else" })).body.id
})

describe("/admin/v1/merchants/{id}/users", () => {
  it("POST invites a user: 201 with its set-password link under the public base, which names it", async () => {
    const { status, body } = await call("POST", `/merchants/${merchantId}/users`, { email: "Owner@Books.Example", role: "owner" })
    expect(status).toBe(201)
    expect(body).toEqual({ data: { id: expect.any(String), email: "owner@books.example", role: "owner", set_password_url: expect.any(String) } })
    const user = await runtime.runPromise(passwordLinkUser(tokenOf(body.data.set_password_url)))
    expect(user).toMatchObject({ id: body.data.id, merchantId, status: "invited" })
  })

  it("POST refuses a taken email (409, whatever its case, whichever merchant), bad fields (422) and an unknown merchant (404)", async () => {
    await call("POST", `/merchants/${merchantId}/users`, { email: "taken@books.example", role: "viewer" })
    const taken = await call("POST", `/merchants/${otherMerchantId}/users`, { email: "TAKEN@books.example", role: "owner" })
    expect(taken).toEqual({
      status: 409,
      body: {
        success: false,
        message: "A dashboard user with this email already exists.",
        error_code: "USER_EXISTS",
        errors: { email: ["This email already signs in to a merchant's dashboard."] },
        timestamp: expect.any(String),
        request_id: expect.any(String)
      }
    })
    const invalid = await call("POST", `/merchants/${merchantId}/users`, { email: "not-an-email", role: "admin" })
    expect(invalid.status).toBe(422)
    expect(invalid.body).toMatchObject({
      error_code: "VALIDATION_FAILED",
      errors: { email: ["The email field must be a valid email address."], role: ["The selected role is invalid; it must be one of: owner, viewer."] }
    })
    expect((await call("POST", `/merchants/${merchantId}/users`, {})).body.errors).toEqual({
      email: ["The email field is required."], role: ["The role field is required."]
    })
    const missing = await call("POST", "/merchants/987654321/users", { email: "x@books.example", role: "owner" })
    expect(missing).toMatchObject({ status: 404, body: { message: "Merchant not found.", error_code: "NOT_FOUND" } })
    expect((await call("POST", `/merchants/${merchantId}/users`, { email: "y@books.example", role: "owner" }, "wrong")).status).toBe(401)
  })

  it("GET lists the merchant's users, oldest first, with status and last sign-in; 404 for an unknown merchant", async () => {
    const merchant = (await call("POST", "/merchants", { name: "Listed" })).body.id
    const first = (await call("POST", `/merchants/${merchant}/users`, { email: "first@listed.example", role: "owner" })).body.data
    await call("POST", `/merchants/${merchant}/users`, { email: "second@listed.example", role: "viewer" })
    await runtime.runPromise(setPasswordWithLink(tokenOf(first.set_password_url), "a long enough password"))
    await runtime.runPromise(signIn({ email: "first@listed.example", password: "a long enough password", address: "192.0.2.1" }))
    const { status, body } = await call("GET", `/merchants/${merchant}/users`)
    expect(status).toBe(200)
    expect(body.data).toEqual([
      { id: first.id, email: "first@listed.example", role: "owner", status: "active", created_at: expect.any(String), last_sign_in_at: expect.stringMatching(/^\d{4}-.*\.\d{6}Z$/) },
      { id: expect.any(String), email: "second@listed.example", role: "viewer", status: "invited", created_at: expect.any(String), last_sign_in_at: null }
    ])
    expect((await call("GET", "/merchants/987654321/users")).status).toBe(404)
  })

  it("PATCH disables and enables a user (200), refuses a missing flag (422), and another merchant's user or an unknown one (404)", async () => {
    const user = (await call("POST", `/merchants/${merchantId}/users`, { email: "toggle@books.example", role: "viewer" })).body.data
    const disabled = await call("PATCH", `/merchants/${merchantId}/users/${user.id}`, { disabled: true })
    expect(disabled).toMatchObject({ status: 200, body: { data: { id: user.id, status: "disabled" } } })
    expect((await call("PATCH", `/merchants/${merchantId}/users/${user.id}`, { disabled: false })).body.data.status).toBe("invited")
    expect((await call("PATCH", `/merchants/${merchantId}/users/${user.id}`, {})).body).toMatchObject({ errors: { disabled: ["The disabled field is required."] } })
    expect(await call("PATCH", `/merchants/${otherMerchantId}/users/${user.id}`, { disabled: true })).toMatchObject({
      status: 404, body: { message: "User not found.", error_code: "NOT_FOUND" }
    })
    expect((await call("PATCH", `/merchants/${merchantId}/users/no-such-user`, { disabled: true })).status).toBe(404)
  })

  it("POST password-link issues a fresh link (201) and voids the earlier one; 404 for another merchant's user", async () => {
    const created = (await call("POST", `/merchants/${merchantId}/users`, { email: "forgetful@books.example", role: "owner" })).body.data
    const fresh = await call("POST", `/merchants/${merchantId}/users/${created.id}/password-link`)
    expect(fresh).toMatchObject({ status: 201, body: { data: { id: created.id, email: "forgetful@books.example", role: "owner" } } })
    expect(fresh.body.data.set_password_url).not.toBe(created.set_password_url)
    expect(await runtime.runPromise(Effect.flip(passwordLinkUser(tokenOf(created.set_password_url))))).toMatchObject({ _tag: "PasswordLinkInvalid" })
    expect((await runtime.runPromise(passwordLinkUser(tokenOf(fresh.body.data.set_password_url)))).id).toBe(created.id)
    expect((await call("POST", `/merchants/${otherMerchantId}/users/${created.id}/password-link`)).status).toBe(404)
  })

  it("DELETE removes a user (200) so its email may be invited again; a second DELETE is 404", async () => {
    const user = (await call("POST", `/merchants/${merchantId}/users`, { email: "leaving@books.example", role: "viewer" })).body.data
    expect((await call("DELETE", `/merchants/${otherMerchantId}/users/${user.id}`)).status).toBe(404)
    expect(await call("DELETE", `/merchants/${merchantId}/users/${user.id}`)).toEqual({ status: 200, body: { data: { id: user.id, deleted: true } } })
    expect((await call("DELETE", `/merchants/${merchantId}/users/${user.id}`)).status).toBe(404)
    expect((await call("POST", `/merchants/${otherMerchantId}/users`, { email: "leaving@books.example", role: "owner" })).status).toBe(201)
  })

  it("PATCH and DELETE never take away the merchant's last active owner (409); with another active owner they may", async () => {
    const merchant = (await call("POST", "/merchants", { name: "One Owner" })).body.id
    const activeOwner = async (email: string) => {
      const created = (await call("POST", `/merchants/${merchant}/users`, { email, role: "owner" })).body.data
      await runtime.runPromise(setPasswordWithLink(tokenOf(created.set_password_url), "a long enough password"))
      return created.id as string
    }
    const first = await activeOwner("first@one-owner.example")
    const viewer = (await call("POST", `/merchants/${merchant}/users`, { email: "viewer@one-owner.example", role: "viewer" })).body.data.id
    // An owner who has not set a password yet cannot sign in: it does not count.
    const invited = (await call("POST", `/merchants/${merchant}/users`, { email: "invited@one-owner.example", role: "owner" })).body.data.id
    await runtime.runPromise(setPasswordWithLink(tokenOf((await call("POST", `/merchants/${merchant}/users/${viewer}/password-link`)).body.data.set_password_url), "a long enough password"))
    const refusal = {
      success: false,
      message: "This is the merchant's last active owner, who cannot be disabled or deleted.",
      error_code: "INVALID_STATE",
      errors: { user_id: ["Invite another owner and let them set a password first: a merchant needs an owner to manage its account."] },
      timestamp: expect.any(String),
      request_id: expect.any(String)
    }
    expect(await call("PATCH", `/merchants/${merchant}/users/${first}`, { disabled: true })).toEqual({ status: 409, body: refusal })
    expect(await call("DELETE", `/merchants/${merchant}/users/${first}`)).toEqual({ status: 409, body: refusal })
    expect((await call("GET", `/merchants/${merchant}/users`)).body.data.find((user: { id: string }) => user.id === first).status).toBe("active")
    // Viewers and invited owners go freely.
    expect((await call("PATCH", `/merchants/${merchant}/users/${viewer}`, { disabled: true })).status).toBe(200)
    expect((await call("DELETE", `/merchants/${merchant}/users/${invited}`)).status).toBe(200)
    const second = await activeOwner("second@one-owner.example")
    expect((await call("PATCH", `/merchants/${merchant}/users/${first}`, { disabled: true })).status).toBe(200)
    expect((await call("DELETE", `/merchants/${merchant}/users/${second}`)).status).toBe(409)
    expect((await call("PATCH", `/merchants/${merchant}/users/${first}`, { disabled: false })).status).toBe(200)
    // Two owners removed at once: one goes, the other is refused as the last.
    const answers = await Promise.all([call("DELETE", `/merchants/${merchant}/users/${first}`), call("PATCH", `/merchants/${merchant}/users/${second}`, { disabled: true })])
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409])
    const left = (await call("GET", `/merchants/${merchant}/users`)).body.data.filter((user: { role: string; status: string }) => user.role === "owner" && user.status === "active")
    expect(left).toHaveLength(1)
  })

  it("every change is in the audit log, refusals too, with the merchant and the field names only", async () => {
    const merchant = (await call("POST", "/merchants", { name: "Audited Users" })).body.id
    const user = (await call("POST", `/merchants/${merchant}/users`, { email: "audited@users.example", role: "owner" })).body.data
    await call("POST", `/merchants/${merchant}/users`, { email: "audited@users.example", role: "owner" })
    await call("PATCH", `/merchants/${merchant}/users/${user.id}`, { disabled: true })
    await call("POST", `/merchants/${merchant}/users/${user.id}/password-link`)
    await call("DELETE", `/merchants/${merchant}/users/${user.id}`)
    await call("GET", `/merchants/${merchant}/users`)
    const { body } = await call("GET", `/audit?merchant_id=${merchant}`)
    expect(body.data.map((entry: any) => [entry.operation, entry.method, entry.status, entry.fields])).toEqual([
      ["deleteMerchantUser", "DELETE", 200, []],
      ["issueMerchantUserPasswordLink", "POST", 201, []],
      ["updateMerchantUser", "PATCH", 200, ["disabled"]],
      ["createMerchantUser", "POST", 409, ["email", "role"]],
      ["createMerchantUser", "POST", 201, ["email", "role"]],
      ["createMerchant", "POST", 201, ["name"]]
    ])
    expect(body.data[0]).toMatchObject({ route: "/admin/v1/merchants/{id}/users/{user_id}", path_params: { id: String(merchant), user_id: user.id }, merchant_id: merchant })
    expect(JSON.stringify(body)).not.toContain("set-password")
  })
})
