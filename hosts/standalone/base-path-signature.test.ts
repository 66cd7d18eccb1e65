import { execFile, spawnSync } from "node:child_process"
import { createHmac } from "node:crypto"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { childHostSuite } from "../../testing/hosts/child-host-suite.js"
import { type Host, startHost } from "../../testing/hosts/child-hosts.js"
import { type Demo, readDemo, signedCall } from "../../testing/hosts/demo-fixtures.js"

const SIGNATURE_INVALID = "The request signature is invalid."
const hasTools = ["bash", "curl", "openssl"].every((tool) => spawnSync("which", [tool]).status === 0)

/**
 * The built host under BASE_PATH=/payments, called as a real client calls it: given
 * `http://host/payments` as its base URL, it signs the spec's path relative to that base
 * (`/api/v1/initiate-payment`), while other clients sign the full path they call. Both are accepted;
 * a signature over any other path is not.
 */
describe("the built host under /payments accepts signatures over the relative and the full path", () => {
  const scratch = childHostSuite("mp-base-path-", { receiver: false })
  let host: Host
  let demo: Demo
  let origin = ""

  beforeAll(async () => {
    const dataDir = join(scratch(), "host")
    host = await startHost(dataDir, { BASE_PATH: "/payments" })
    demo = readDemo(dataDir)
    origin = new URL(host.url).origin
    expect(host.url).toBe(`${origin}/payments`)
  }, 60_000)

  const initiateBody = (refTrx: string) => ({
    payment_amount: "25.50", currency_code: "USD", ref_trx: refTrx, success_redirect: "https://shop.example/ok",
    cancel_redirect: "https://shop.example/cancel", ipn_url: "https://shop.example/ipn"
  })

  it("a client signing the relative path: initiate, pay, verify all answer 200", async () => {
    // signedCall signs `path` and calls base + path: the relative form, as the SDK does.
    const initiated = await signedCall(host.url, demo, "POST", "/api/v1/initiate-payment", { body: initiateBody("relative-1") })
    expect(initiated.status, initiated.text).toBe(200)
    const trxId: string = initiated.json.info.trx_id
    const paid = await signedCall(host.url, demo, "POST", `/api/v1/sandbox/payments/${trxId}/simulate`, { body: { outcome: "success" } })
    expect(paid.status, paid.text).toBe(200)
    const verified = await signedCall(host.url, demo, "GET", `/api/v1/verify-payment/${trxId}`)
    expect(verified.status, verified.text).toBe(200)
    expect(verified.json.status).toBe("success")
    const info = await signedCall(host.url, demo, "GET", "/api/v1/site-info?lang=en")
    expect(info.status, info.text).toBe(200)
  }, 30_000)

  it("a client signing the full path it calls: 200 too", async () => {
    const initiated = await signedCall(origin, demo, "POST", "/payments/api/v1/initiate-payment", { body: initiateBody("full-1") })
    expect(initiated.status, initiated.text).toBe(200)
    const verified = await signedCall(origin, demo, "GET", `/payments/api/v1/verify-payment/${initiated.json.info.trx_id as string}`)
    expect(verified.status, verified.text).toBe(200)
  }, 30_000)

  it("a signature over another path is refused with 401 on X-Signature", async () => {
    for (const signedOver of ["/other/api/v1/site-info", "/payments/v2/api/v1/site-info", "/v1/site-info"]) {
      const timestamp = String(Math.floor(Date.now() / 1000))
      const signature = `sha256=${createHmac("sha256", demo.client_secret).update(`${timestamp}.GET.${signedOver}.`).digest("hex")}`
      const refused = await signedCall(host.url, demo, "GET", "/api/v1/site-info", { headers: { "x-timestamp": timestamp, "x-signature": signature } })
      expect(refused.status, refused.text).toBe(401)
      expect(refused.json.message).toBe(SIGNATURE_INVALID)
    }
  }, 30_000)

  it.skipIf(!hasTools)("the banner's addresses include the base path: its printed site-info request answers 200, PAYMENTS_URL names it (needs bash, curl, openssl)", async () => {
    const banner = host.output()
    expect(banner).toContain(`export PAYMENTS_URL='${host.url}'`)
    const printed = banner.slice(banner.indexOf("try a signed request")).split("\n").slice(1, 4).join("\n")
    expect(printed).toContain(`curl -s ${host.url}/api/v1/site-info `)
    const answered = await new Promise<string>((resolve, reject) =>
      execFile("bash", ["-c", `${printed} -o /dev/null -w '%{http_code}'`], (error, stdout) => (error ? reject(error) : resolve(stdout))))
    expect(answered).toBe("200")
  }, 30_000)
})
