import { copyFileSync, mkdirSync } from "node:fs"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { signNotification } from "../../examples/acme-pay-plugin/acme-pay-gateway.mjs"
import {
  currentReceiverUrl,
  describeReceived,
  type Host,
  received,
  resetReceiver,
  ROOT,
  sleep,
  startHost,
  waitFor,
  withHostReports
} from "../../testing/hosts/child-hosts.js"
import { adminGet, hmacHex, merchantCall, readAdminToken, readDemo } from "../../testing/hosts/demo-fixtures.js"
import { childHostSuite } from "../../testing/hosts/child-host-suite.js"

const SECRET = "acme-signing-secret-for-the-test"

/**
 * The must-show, end to end against the built standalone host: a Promise-style plugin file
 * from outside the repository, loaded by GATEWAY_PLUGINS, offered on hosted checkout; the customer
 * chooses it and never returns; a mis-signed notification changes nothing; the genuine one, sent
 * three times, completes the payment once (one wallet credit, one IPN); verify says success.
 */
describe("standalone host: a gateway plugin loaded by name completes a payment by notification alone", () => {
  const scratch = childHostSuite("mp-plugin-notify-")
  let pluginPath = ""
  beforeAll(() => {
    mkdirSync(join(scratch(), "plugins"))
    pluginPath = join(scratch(), "plugins", "acme-pay.mjs")
    copyFileSync(join(ROOT, "examples", "acme-pay-plugin", "acme-pay.mjs"), pluginPath)
  })

  it("three signed notifications: one completion, one credit, one IPN; a mis-signed one: nothing", async () => {
    resetReceiver([])
    const dataDir = join(scratch(), "data")
    let host: Host | undefined
    await withHostReports(() => [["host", host]], async () => {
      host = await startHost(dataDir, { GATEWAY_PLUGINS: pluginPath, WEBHOOK_POLL_INTERVAL_MS: "100" })
      const demo = readDemo(dataDir)
      const token = readAdminToken(dataDir)
      const admin = (method: string, path: string, body: unknown) =>
        fetch(`${host!.url}/admin/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(body)
        }).then(async (response) => ({ status: response.status, json: await response.json() as any }))

      const gateway = await admin("POST", "/gateways", {
        plugin: "acme-pay",
        name: "Acme Pay",
        currency_code: "USD",
        method: "acme",
        config: { pay_page_url: "https://pay.acme.example/checkout", signing_secret: SECRET }
      })
      expect(gateway.status, JSON.stringify(gateway.json)).toBe(201)

      const initiated = await merchantCall(host, demo, "POST", "/api/v1/initiate-payment", {
        payment_amount: "25.00",
        currency_code: "USD",
        ref_trx: "acme-notify-1",
        success_redirect: "https://example.com/ok",
        cancel_redirect: "https://example.com/c",
        ipn_url: `${currentReceiverUrl()}/ipn`
      })
      expect(initiated.status, initiated.text).toBe(200)
      const trxId: string = initiated.json.info.trx_id
      const paymentUrl: string = initiated.json.payment_url

      // Hosted checkout offers the plugin's gateway; the customer chooses it and leaves for Acme Pay.
      const page = await fetch(paymentUrl).then((response) => response.text())
      expect(page).toContain("Acme Pay")
      expect(page).toContain(`name="gateway_id" value="${gateway.json.id}"`)
      const chosen = await fetch(`${paymentUrl}/pay`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `gateway_id=${gateway.json.id}`,
        redirect: "manual"
      })
      expect(chosen.status).toBe(303)
      const atAcme = new URL(chosen.headers.get("location")!)
      expect(`${atAcme.origin}${atAcme.pathname}`).toBe("https://pay.acme.example/checkout")
      expect(Object.fromEntries(atAcme.searchParams)).toMatchObject({ trx: trxId, amount: "25.00", currency: "USD" })
      const notifyUrl = atAcme.searchParams.get("notify_url")!
      expect(notifyUrl).toBe(`${host.url}/gateways/${gateway.json.id}/notify?environment=sandbox`)

      const balance = async () => {
        const wallets = await adminGet(host!, token, `/merchants/${demo.merchant_id}/wallets`)
        return wallets.json.data.find((wallet: any) => wallet.currency_code === "USD" && wallet.environment === "sandbox").balance as number
      }
      // A new store: the wallet starts empty, so its balance is exactly what this payment credits.
      expect(await balance()).toBe(0)
      const notify = (notification: { readonly rawBody: Uint8Array; readonly headers: Record<string, string> }) =>
        fetch(notifyUrl, { method: "POST", headers: notification.headers, body: notification.rawBody })
      const paid = signNotification(SECRET, { trx_id: trxId, status: "paid", amount: "25.00", currency: "USD" })

      // Mis-signed: heard, answered, and nothing changes.
      const forged = await notify({ ...paid, headers: { ...paid.headers, "x-acme-signature": hmacHex("not-the-secret", paid.rawBody) } })
      expect(forged.status).toBe(200)
      const pending = await merchantCall(host, demo, "GET", `/api/v1/verify-payment/${trxId}`)
      expect(pending.json.status).toBe("pending")
      expect(await balance()).toBe(0)

      for (let time = 0; time < 3; time++) expect((await notify(paid)).status).toBe(200)

      await waitFor("the IPN", 15_000, () => (received.length >= 1 ? true : undefined))
      await sleep(1_500)
      const ipns = received.filter((request) => JSON.parse(request.text).data?.trx_id === trxId)
      expect(ipns, describeReceived()).toHaveLength(1)
      expect(JSON.parse(ipns[0]!.text)).toMatchObject({ event: "payment.completed", status: "completed" })
      expect(ipns[0]!.headers["x-signature"]).toBe(hmacHex(demo.webhook_secret, ipns[0]!.rawBody))

      const verified = await merchantCall(host, demo, "GET", `/api/v1/verify-payment/${trxId}`)
      expect([verified.status, verified.json.status]).toEqual([200, "success"])
      // One credit of the net: the admin view's net is what the wallet grew by, exactly.
      const detail = await adminGet(host, token, `/payments/${trxId}`)
      expect(detail.status, detail.text).toBe(200)
      expect(detail.json.data.net).toBeGreaterThan(0)
      expect(await balance()).toBe(detail.json.data.net)
    })
  }, 120_000)
})
