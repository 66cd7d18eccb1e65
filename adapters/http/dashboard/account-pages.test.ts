// The dashboard's account pages over HTTP, the platform signing visitors in: the environment switch
// (production for an approved merchant only), statements and their CSV, API Config's refusals, and
// rolling credentials with an overlap. The kit's own cookies are Secure under an https base address.
import { randomUUID } from "node:crypto"
import { HttpApp } from "@effect/platform"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeCurrencyCatalog } from "../../../core/money/currencies.js"
import { defaultSiteSettings } from "../../../core/settings/site-settings.js"
import { defaultWebhookConfig, kitLayer } from "../../../hosts/kit-layer.js"
import type { IssuedCredentials } from "../../../hosts/embedding/index.js"
import { httpApp } from "../app.js"
import { formTokenOf, type PlatformDashboard, startPlatformDashboard, textOf } from "../../../testing/http/platform-dashboard.js"

let kit: PlatformDashboard
let shop: { readonly id: number; readonly credentials: IssuedCredentials }

beforeAll(async () => {
  kit = await startPlatformDashboard()
  shop = await kit.onboard("Account Shop")
}, 60_000)
afterAll(() => kit.close())

const owner = () => ({ merchant: shop.id })

const paid = async (amount: number) => {
  const started = await kit.api(shop.credentials, "POST", "/api/v1/initiate-payment", {
    payment_amount: amount, currency_code: "USD", ref_trx: `acct-${randomUUID()}`,
    success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel", ipn_url: "https://shop.example/ipn"
  })
  const trxId = started.json.info.trx_id as string
  expect((await kit.api(shop.credentials, "POST", `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome: "success" })).status).toBe(200)
  return trxId
}

describe("the environment switch", () => {
  it("offers production to an approved merchant only; anything else asked for is sandbox, with its banner", async () => {
    const approved = await kit.page("/dashboard?environment=production", owner())
    expect(approved.status).toBe(200)
    expect(approved.text).toContain('href="/dashboard?environment=sandbox"')
    expect(approved.text).not.toContain("Sandbox: test data only")
    const pending = (await kit.payments.admin.merchants.create({ name: "Pending Shop", status: "pending" })).id
    const page = await kit.page("/dashboard?environment=production", { merchant: pending })
    expect(page.status).toBe(200)
    expect(page.text).not.toContain("environment=production")
    expect(page.text).toContain("Sandbox: test data only")
  })
})

describe("statements", () => {
  it("shows each entry with the balance after it, and the CSV has every entry, oldest first, ending at the balance", async () => {
    await paid(40)
    await paid(60)
    const page = await kit.page("/dashboard/statements?environment=sandbox", owner())
    expect(page.status).toBe(200)
    const wallet = /\/dashboard\/statements\/(\d+)\.csv/.exec(page.text)![1]!
    const balance = (await kit.api(shop.credentials, "GET", "/api/v1/balances")).json
    expect(textOf(page.text)).toContain("Balance")
    const csv = await fetch(`${kit.origin}/dashboard/statements/${wallet}.csv?environment=sandbox`, { headers: { "x-test-merchant": String(shop.id) } })
    expect(csv.status).toBe(200)
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/)
    expect(csv.headers.get("content-disposition")).toContain("attachment")
    const lines = (await csv.text()).trim().split("\r\n")
    expect(lines.length).toBeGreaterThanOrEqual(3)
    const header = lines[0]!.split(",")
    const last = lines[lines.length - 1]!.split(",")
    const balanceAfter = last[header.indexOf("balance_after")]
    expect(JSON.stringify(balance)).toContain(balanceAfter!.replace(/\.?0+$/, ""))
  })

  it("answers another merchant's wallet, or one that does not exist, with a 404 page", async () => {
    const stranger = await kit.onboard("Statement Stranger")
    const theirs = (await kit.payments.admin.wallets.list(stranger.id)).data[0]!.id
    expect((await kit.page(`/dashboard/statements?environment=sandbox&wallet=${theirs}`, owner())).status).toBe(404)
    expect((await kit.page(`/dashboard/statements/${theirs}.csv?environment=sandbox`, owner())).status).toBe(404)
    expect((await kit.page("/dashboard/statements/not-a-wallet.csv?environment=sandbox", owner())).status).toBe(404)
  })
})

describe("API Config", () => {
  it("refuses a currency taken with none of its gateways ticked, naming it, and changes nothing", async () => {
    const page = await kit.page("/dashboard/api-config?environment=sandbox", owner())
    expect(page.status).toBe(200)
    const refused = await kit.post("/dashboard/api-config", { csrf_token: formTokenOf(page.text), environment: "sandbox", currencies: "USD" }, owner())
    expect(refused.status).toBe(422)
    expect(textOf(refused.text)).toContain("Tick at least one gateway for USD")
    const viewer = await kit.page("/dashboard/api-config?environment=sandbox", { merchant: shop.id, role: "viewer" })
    expect(viewer.text).not.toContain('method="post"')
    expect((await kit.post("/dashboard/api-config", { csrf_token: formTokenOf(page.text), environment: "sandbox", currencies: "USD" }, { merchant: shop.id, role: "viewer" })).status).toBe(403)
  })
})

describe("API Config: the sites that may frame checkout", () => {
  it("an owner saves https origins (normalised, audited); a refused list is said and kept to correct; viewers and forged forms change nothing", async () => {
    const page = await kit.page("/dashboard/api-config?environment=sandbox", owner())
    expect(page.text).toContain('action="/dashboard/api-config/frame-ancestors"')
    const token = formTokenOf(page.text)
    const saved = await kit.post("/dashboard/api-config/frame-ancestors", {
      csrf_token: token, environment: "sandbox", checkout_frame_ancestors: "https://Shop.Example/\r\n\r\nhttps://staging.shop.example:8443"
    }, owner())
    expect([saved.status, saved.location]).toEqual([303, "/dashboard/api-config?environment=sandbox&done=frames"])
    expect((await kit.payments.admin.checkoutFrames.get(shop.id)).checkout_frame_ancestors).toEqual(["https://shop.example", "https://staging.shop.example:8443"])
    expect(textOf((await kit.page("/dashboard/api-config?environment=sandbox&done=frames", owner())).text)).toContain("may now be framed by exactly these sites")

    const refused = await kit.post("/dashboard/api-config/frame-ancestors", {
      csrf_token: token, environment: "sandbox", checkout_frame_ancestors: "http://shop.example\nhttps://*.shop.example"
    }, owner())
    expect(refused.status).toBe(422)
    expect(textOf(refused.text)).toContain("The origin http://shop.example is refused: only https origins may frame checkout.")
    expect(refused.text).toContain("http://shop.example\nhttps://*.shop.example</textarea>")
    expect((await kit.payments.admin.checkoutFrames.get(shop.id)).checkout_frame_ancestors).toEqual(["https://shop.example", "https://staging.shop.example:8443"])

    const viewer = { merchant: shop.id, role: "viewer" as const }
    expect((await kit.page("/dashboard/api-config?environment=sandbox", viewer)).text).toContain("<li>https://shop.example</li>")
    expect((await kit.post("/dashboard/api-config/frame-ancestors", { csrf_token: token, environment: "sandbox", checkout_frame_ancestors: "" }, viewer)).status).toBe(403)
    expect((await kit.post("/dashboard/api-config/frame-ancestors", { csrf_token: "forged", environment: "sandbox", checkout_frame_ancestors: "" }, owner())).status).toBe(403)
    expect((await kit.payments.admin.checkoutFrames.get(shop.id)).checkout_frame_ancestors).toHaveLength(2)

    const audit = (await kit.payments.admin.audit.list({ merchant_id: shop.id })).data.filter((entry) => entry.operation === "replaceCheckoutFrameAncestors")
    expect(audit.map((entry) => [entry.actor_type, entry.status, entry.fields])).toEqual([
      ["merchant_user", 422, ["checkout_frame_ancestors"]],
      ["merchant_user", 303, ["checkout_frame_ancestors"]]
    ])
  })
})

describe("rolling credentials", () => {
  it("with an overlap: the new set works at once, the old until the overlap ends, which an owner can end now", async () => {
    const page = await kit.page("/dashboard/developers?environment=sandbox", owner())
    const token = formTokenOf(page.text)
    const rolled = await kit.post("/dashboard/developers/roll", { csrf_token: token, environment: "sandbox", overlap_seconds: "3600" }, owner())
    expect(rolled.status).toBe(200)
    const secret = (id: string) => new RegExp(`id="${id}"[^>]*>([^<]+)<`).exec(rolled.text)![1]!
    const fresh: IssuedCredentials = { ...shop.credentials, merchant_key: secret("merchant-key"), api_key: secret("api-key"), client_secret: secret("client-secret"), webhook_secret: secret("webhook-secret") }
    expect(textOf(rolled.text)).toContain("keep working until")
    expect((await kit.api(fresh, "GET", "/api/v1/balances")).status).toBe(200)
    expect((await kit.api(shop.credentials, "GET", "/api/v1/balances")).status).toBe(200)
    const during = await kit.page("/dashboard/developers?environment=sandbox", owner())
    expect(textOf(during.text)).toContain(shop.credentials.merchant_key)
    expect((await kit.post("/dashboard/developers/end-overlap", { csrf_token: token, environment: "sandbox" }, owner())).status).toBe(303)
    expect((await kit.api(shop.credentials, "GET", "/api/v1/balances")).status).toBe(401)
    expect((await kit.api(fresh, "GET", "/api/v1/balances")).status).toBe(200)
    // Shown once: the page never shows the secrets again.
    const after = await kit.page("/dashboard/developers?environment=sandbox", owner())
    expect(after.text).not.toContain(fresh.client_secret)
    expect(after.text).not.toContain(fresh.api_key)
    shop = { ...shop, credentials: fresh }
  })
})

describe("cookies under an https base address", () => {
  it("are marked Secure", async () => {
    const currencies = makeCurrencyCatalog({ cryptoCodes: [] })
    if (currencies._tag === "Left") throw currencies.left
    const runtime = ManagedRuntime.make(kitLayer({
      store: { kind: "sqlite", filename: join(mkdtempSync(join(tmpdir(), "mp-secure-")), "store.db") },
      masterKey: new Uint8Array(32).fill(9),
      adminToken: "secure-cookie-test",
      settings: defaultSiteSettings,
      currencies: currencies.right,
      baseUrl: "https://shop.example/payments",
      checkoutLifetimeSeconds: 3600,
      webhooks: defaultWebhookConfig,
      backgroundJobs: false
    }))
    try {
      const handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp)
      const answer = await handler(new Request("https://shop.example/dashboard/login"))
      expect(answer.status).toBe(200)
      const cookie = answer.headers.getSetCookie().find((line) => line.startsWith("mp_dashboard_pre="))!
      expect(cookie).toContain("Secure")
      expect(cookie).toContain("Path=/payments/dashboard")
      // Links under the base path, as the browser sees them.
      expect(await answer.text()).toContain('action="/payments/dashboard/login"')
    } finally {
      await runtime.dispose()
    }
  })
})

describe("the platform's sign-in", () => {
  it("is told where to bring the visitor back: the page asked for, as `next`, its own query kept", async () => {
    const asked = await fetch(`${kit.origin}/dashboard/payments?environment=sandbox&status=success`, { redirect: "manual" })
    expect(asked.status).toBe(303)
    expect(asked.headers.get("location")).toBe(`/login?next=${encodeURIComponent("/dashboard/payments?environment=sandbox&status=success")}`)
    // The kit's own sign-in address passes a safe `next` on, and drops one that leaves the dashboard.
    const viaKit = await fetch(`${kit.origin}/dashboard/login?next=${encodeURIComponent("/dashboard/webhooks")}`, { redirect: "manual" })
    expect(viaKit.headers.get("location")).toBe(`/login?next=${encodeURIComponent("/dashboard/webhooks")}`)
    const away = await fetch(`${kit.origin}/dashboard/login?next=${encodeURIComponent("/dashboard/../../evil")}`, { redirect: "manual" })
    expect(away.headers.get("location")).toBe("/login")
  })
})

describe("platformSignInUrl", () => {
  it("adds next to a path or an absolute address, keeping the platform's query and fragment", async () => {
    const { platformSignInUrl } = await import("./visitor.js")
    expect(platformSignInUrl("/login", "/payments/dashboard")).toBe("/login?next=%2Fpayments%2Fdashboard")
    expect(platformSignInUrl("/account/sign-in?from=kit#top", "/dashboard/payments?x=1"))
      .toBe("/account/sign-in?from=kit&next=%2Fdashboard%2Fpayments%3Fx%3D1#top")
    expect(platformSignInUrl("https://id.example/login", "/dashboard")).toBe("https://id.example/login?next=%2Fdashboard")
  })
})
