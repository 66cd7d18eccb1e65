// The kit's own dashboard sign-in with the kit mounted under a base path on a bare node:http
// server: a visitor sent to sign in comes back to the page it asked for, base path and all.
import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { formTokenOf } from "../../testing/http/platform-dashboard.js"
import { createMerchantPayments, type MerchantPayments } from "./create-merchant-payments.js"

const PASSWORD = "a long enough passphrase"

let scratch = ""
let server: Server
let origin = ""
let payments: MerchantPayments

/** One browser's cookies, sent back on every request; redirects not followed. */
const browser = () => {
  const jar = new Map<string, string>()
  const send = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${origin}${path}`, {
      ...init,
      headers: { ...init.headers as Record<string, string>, cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") },
      redirect: "manual"
    })
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";")
      const at = pair!.indexOf("=")
      if (pair!.slice(at + 1) === "") jar.delete(pair!.slice(0, at))
      else jar.set(pair!.slice(0, at), pair!.slice(at + 1))
    }
    return response
  }
  return {
    get: (path: string) => send(path),
    post: (path: string, fields: Record<string, string>) =>
      send(path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() })
  }
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "mp-mounted-sign-in-"))
  server = createServer((request, response) => payments.handler(request, response))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  payments = await createMerchantPayments({
    database: `sqlite:${join(scratch, "payments.db")}`,
    masterKey: "44".repeat(32),
    baseUrl: origin,
    basePath: "/payments",
    logging: false
  })
}, 60_000)

afterAll(async () => {
  await payments.close()
  await new Promise((resolve) => server.close(resolve))
  rmSync(scratch, { recursive: true, force: true })
})

describe("the kit's dashboard sign-in under a base path", () => {
  it("lands on the page the visitor asked for, not the overview", async () => {
    const merchant = await payments.admin.merchants.create({ name: "Mounted Sign-in Shop", status: "approved" })
    const { data: { set_password_url } } = await payments.admin.users.create(merchant.id, { email: "mounted@shop.example", role: "owner" })
    const link = new URL(set_password_url).pathname
    expect(link.startsWith("/payments/dashboard/set-password/")).toBe(true)
    const visitor = browser()
    const setForm = await visitor.get(link)
    expect((await visitor.post(link, { csrf_token: formTokenOf(await setForm.text()), password: PASSWORD })).status).toBe(303)

    const asked = await visitor.get("/payments/dashboard/payments?environment=sandbox")
    expect(asked.status).toBe(303)
    const toSignIn = asked.headers.get("location")!
    expect(toSignIn).toBe("/payments/dashboard/login?next=%2Fpayments%2Fdashboard%2Fpayments%3Fenvironment%3Dsandbox")
    const form = await (await visitor.get(toSignIn)).text()
    expect(form).toContain('name="next" value="/payments/dashboard/payments?environment=sandbox"')
    const next = /name="next" value="([^"]*)"/.exec(form)![1]!
    const signedIn = await visitor.post("/payments/dashboard/login", { csrf_token: formTokenOf(form), email: "mounted@shop.example", password: PASSWORD, next })
    expect(signedIn.status).toBe(303)
    expect(signedIn.headers.get("location")).toBe("/payments/dashboard/payments?environment=sandbox")
    expect((await visitor.get(signedIn.headers.get("location")!)).status).toBe(200)
  })
})
