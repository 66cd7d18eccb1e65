// Signing in to the dashboard with the kit's own merchant users, over HTTP: the one-time link, the
// sign-in form, the session cookie and its rotation, sign-out, the form tokens of pages before a
// session exists, and throttled failures that never say whether an account exists.
import { randomBytes, scryptSync } from "node:crypto"
import { createServer, type Server } from "node:http"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createMerchantPayments, type MerchantPayments } from "../../../../hosts/embedding/index.js"
import { formTokenOf, textOf } from "../../../../testing/http/platform-dashboard.js"

let scratch = ""
let server: Server
let origin = ""
let payments: MerchantPayments
let merchantId = 0

const PASSWORD = "a long enough passphrase"

/** One browser: the cookies it was given, sent back on every request; redirects not followed. */
const browser = () => {
  const jar = new Map<string, string>()
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";")
      const at = pair!.indexOf("=")
      const name = pair!.slice(0, at)
      const value = pair!.slice(at + 1)
      if (value === "" || /Max-Age=0/i.test(line)) jar.delete(name)
      else jar.set(name, value)
    }
    return response
  }
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
  return {
    jar,
    get: async (path: string) => remember(await fetch(`${origin}${path}`, { headers: { cookie: cookie() }, redirect: "manual" })),
    post: async (path: string, fields: Record<string, string>) =>
      remember(await fetch(`${origin}${path}`, {
        method: "POST",
        headers: { cookie: cookie(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
        redirect: "manual"
      }))
  }
}

const newUser = async (email: string, role: "owner" | "viewer" = "owner") => {
  const { data: { set_password_url } } = await payments.admin.users.create(merchantId, { email, role })
  return new URL(set_password_url).pathname
}

/** A user with a password, signed in by a fresh browser. */
const signedIn = async (email: string) => {
  const link = await newUser(email)
  const visitor = browser()
  const page = await visitor.get(link)
  expect((await visitor.post(link, { csrf_token: formTokenOf(await page.text()), password: PASSWORD })).status).toBe(303)
  const form = await visitor.get("/dashboard/login")
  const answer = await visitor.post("/dashboard/login", { csrf_token: formTokenOf(await form.text()), email, password: PASSWORD })
  expect(answer.status).toBe(303)
  return { visitor, answer }
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "mp-sign-in-"))
  server = createServer((request, response) => payments.handler(request, response))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  payments = await createMerchantPayments({ database: `sqlite:${join(scratch, "payments.db")}`, masterKey: "33".repeat(32), baseUrl: origin, logging: false })
  merchantId = (await payments.admin.merchants.create({ name: "Sign-in Shop", status: "approved" })).id
}, 60_000)

afterAll(async () => {
  await payments.close()
  await new Promise((resolve) => server.close(resolve))
  rmSync(scratch, { recursive: true, force: true })
})

describe("dashboard sign-in with the kit's users", () => {
  it("sends a visitor without a session to the sign-in form, coming back to the page asked for", async () => {
    const answer = await browser().get("/dashboard/payments?environment=sandbox")
    expect(answer.status).toBe(303)
    expect(answer.headers.get("location")).toBe("/dashboard/login?next=%2Fdashboard%2Fpayments%3Fenvironment%3Dsandbox")
  })

  it("sets a password through the one-time link (12 characters at least), then the link is spent", async () => {
    const link = await newUser("linked@shop.example")
    const visitor = browser()
    const page = await visitor.get(link)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('value="linked@shop.example"')
    expect(visitor.jar.has("mp_dashboard_pre")).toBe(true)
    expect((await visitor.post(link, { password: PASSWORD })).status).toBe(403)
    const short = await visitor.post(link, { csrf_token: formTokenOf(html), password: "too short" })
    expect(short.status).toBe(422)
    expect(textOf(await short.text())).toMatch(/12 characters/)
    const set = await visitor.post(link, { csrf_token: formTokenOf(html), password: PASSWORD })
    expect(set.status).toBe(303)
    expect(set.headers.get("location")).toBe("/dashboard/login?password=set")
    expect((await visitor.get(link)).status).toBe(410)
  })

  it("signs in with email and password: 303 to the dashboard with an HttpOnly, SameSite=Lax session cookie scoped to it", async () => {
    const { visitor, answer } = await signedIn("owner@shop.example")
    expect(answer.headers.get("location")).toBe("/dashboard")
    const cookie = answer.headers.getSetCookie().find((line) => line.startsWith("mp_dashboard="))!
    expect(cookie).toContain("HttpOnly")
    expect(cookie).toContain("SameSite=Lax")
    expect(cookie).toContain("Path=/dashboard")
    expect(cookie).not.toContain("Secure")
    const home = await visitor.get("/dashboard/developers?environment=sandbox")
    expect(home.status).toBe(200)
    expect(textOf(await home.text())).toContain("owner@shop.example (owner)")
  })

  it("gives a new session at every sign-in and ends the one the browser carried", async () => {
    const { visitor } = await signedIn("rotate@shop.example")
    const before = visitor.jar.get("mp_dashboard")!
    const stale = browser()
    stale.jar.set("mp_dashboard", before)
    const form = await visitor.get("/dashboard/login")
    expect((await visitor.post("/dashboard/login", { csrf_token: formTokenOf(await form.text()), email: "rotate@shop.example", password: PASSWORD })).status).toBe(303)
    expect(visitor.jar.get("mp_dashboard")).not.toBe(before)
    expect((await stale.get("/dashboard/developers")).status).toBe(303)
    expect((await visitor.get("/dashboard/developers")).status).toBe(200)
  })

  it("signs out with the session's form token: the session is over on every host", async () => {
    const { visitor } = await signedIn("leaver@shop.example")
    const token = visitor.jar.get("mp_dashboard")!
    const page = await visitor.get("/dashboard/developers")
    expect((await visitor.post("/dashboard/logout", { environment: "sandbox" })).status).toBe(403)
    const out = await visitor.post("/dashboard/logout", { csrf_token: formTokenOf(await page.text()), environment: "sandbox" })
    expect(out.status).toBe(303)
    expect(out.headers.get("location")).toBe("/dashboard/login")
    const replay = browser()
    replay.jar.set("mp_dashboard", token)
    expect((await replay.get("/dashboard/developers")).status).toBe(303)
  })

  it("answers a wrong password and an unknown email alike, then throttles both with 429 and Retry-After", async () => {
    await signedIn("target@shop.example")
    const attempt = async (email: string) => {
      const visitor = browser()
      const form = await visitor.get("/dashboard/login")
      return visitor.post("/dashboard/login", { csrf_token: formTokenOf(await form.text()), email, password: "not the password at all" })
    }
    const wrong = await attempt("target@shop.example")
    const unknown = await attempt("nobody@shop.example")
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    const said = (html: string) => textOf(html).replace(/value="[^"]*"/g, "")
    expect(said(await wrong.text()).replace("target@shop.example", "")).toBe(said(await unknown.text()).replace("nobody@shop.example", ""))
    let known = wrong
    let stranger = unknown
    for (let tries = 0; tries < 10 && (known.status !== 429 || stranger.status !== 429); tries++) {
      if (known.status !== 429) known = await attempt("target@shop.example")
      if (stranger.status !== 429) stranger = await attempt("nobody@shop.example")
    }
    expect(known.status).toBe(429)
    expect(stranger.status).toBe(429)
    expect(Number(known.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(Number(stranger.headers.get("retry-after"))).toBeGreaterThan(0)
  })

  it("refuses a sign-in form posted without the form token of the visitor's pre-session cookie", async () => {
    await signedIn("csrf@shop.example")
    const visitor = browser()
    await visitor.get("/dashboard/login")
    expect((await visitor.post("/dashboard/login", { email: "csrf@shop.example", password: PASSWORD })).status).toBe(403)
    const elsewhere = browser()
    const form = await elsewhere.get("/dashboard/login")
    expect((await visitor.post("/dashboard/login", { csrf_token: formTokenOf(await form.text()), email: "csrf@shop.example", password: PASSWORD })).status).toBe(403)
  })

  it("goes back after sign-in only to a dashboard page, never elsewhere", async () => {
    await newUser("next@shop.example")
    const link = await newUser("next2@shop.example")
    const visitor = browser()
    const page = await visitor.get(link)
    await visitor.post(link, { csrf_token: formTokenOf(await page.text()), password: PASSWORD })
    for (const [next, expected] of [
      ["/dashboard/webhooks?environment=sandbox", "/dashboard/webhooks?environment=sandbox"],
      // Text Node cannot put in a header is written by the URL rule, percent-encoded.
      ["/dashboard/payments?reference=注文-7", "/dashboard/payments?reference=%E6%B3%A8%E6%96%87-7"],
      ["/dashboard/caf\u00e9", "/dashboard/caf%C3%A9"],
      ["https://evil.example/", "/dashboard"],
      ["//evil.example", "/dashboard"],
      ["/\\evil.example", "/dashboard"],
      ["/dashboard/../admin", "/dashboard"],
      ["/dashboard/%2e%2E/admin", "/dashboard"],
      ["/dashboard/.%2e/.%2e/evil", "/dashboard"],
      // Dot segments that stay inside the dashboard are resolved, as the browser would.
      ["/dashboard/payments/../webhooks", "/dashboard/webhooks"]
    ] as const) {
      const form = await visitor.get(`/dashboard/login?next=${encodeURIComponent(next)}`)
      const answer = await visitor.post("/dashboard/login", { csrf_token: formTokenOf(await form.text()), email: "next2@shop.example", password: PASSWORD, next })
      expect(answer.status, next).toBe(303)
      expect(answer.headers.get("location"), next).toBe(expected)
    }
  })

  it("re-hashes a password stored under other scrypt parameters at its next successful sign-in, and it still signs in", async () => {
    await signedIn("rehash@shop.example")
    const store = new Database(join(scratch, "payments.db"))
    try {
      // The same password hashed as an older release would have: N = 2^14 and a 16-byte salt.
      const salt = randomBytes(16)
      const key = scryptSync(PASSWORD.normalize("NFC"), salt, 32, { N: 2 ** 14, r: 8, p: 1 })
      const older = ["scrypt", 2 ** 14, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$")
      store.prepare("UPDATE merchant_users SET password_hash = ? WHERE email = ?").run(older, "rehash@shop.example")
      const storedHash = () => (store.prepare("SELECT password_hash FROM merchant_users WHERE email = ?").get("rehash@shop.example") as { password_hash: string }).password_hash
      const signIn = async (password: string) => {
        const visitor = browser()
        const form = await visitor.get("/dashboard/login")
        return (await visitor.post("/dashboard/login", { csrf_token: formTokenOf(await form.text()), email: "rehash@shop.example", password })).status
      }
      // A failed attempt proves nothing about the password: the old hash stays.
      expect(await signIn("not the password at all")).toBe(401)
      expect(storedHash()).toBe(older)
      expect(await signIn(PASSWORD)).toBe(303)
      const rehashed = storedHash()
      expect(rehashed).not.toBe(older)
      expect(rehashed).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/)
      expect(await signIn(PASSWORD)).toBe(303)
      // Today's parameters are left as they are.
      expect(storedHash()).toBe(rehashed)
    } finally {
      store.close()
    }
  })
})
