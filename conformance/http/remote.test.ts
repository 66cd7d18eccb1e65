import { beforeAll, describe, it } from "vitest"
import { adminRequest, rawRequest } from "./signing.js"
import { httpConformance, type Target } from "./suite.js"

/**
 * The suite against a host that is already running somewhere: `npm run conformance -- --base-url URL
 * --admin-token TOKEN` sets these variables and runs this file. Plain `npm test` sets neither, so
 * the file is skipped under a name that says why.
 */
const baseUrl = process.env["CONFORMANCE_BASE_URL"]
const adminToken = process.env["CONFORMANCE_ADMIN_TOKEN"]

if (baseUrl === undefined || baseUrl === "" || adminToken === undefined || adminToken === "") {
  describe.skip("HTTP conformance: remote host (not requested: run `npm run conformance -- --base-url URL --admin-token TOKEN`)", () => {
    it("runs only with CONFORMANCE_BASE_URL and CONFORMANCE_ADMIN_TOKEN", () => {})
  })
} else {
  const target: Target = {
    baseUrl: baseUrl.replace(/\/+$/, ""),
    adminToken,
    // Say so when the host runs with WEBHOOK_ALLOW_PRIVATE_TARGETS=true: it then accepts loopback ipn_urls.
    allowsPrivateWebhookTargets: process.env["CONFORMANCE_PRIVATE_WEBHOOK_TARGETS"] === "true"
  }

  // Fail once, plainly, when the host is not there or the token is wrong, instead of in every case.
  beforeAll(async () => {
    const health = await rawRequest(target, { method: "GET", path: "/healthz" }).catch((error: unknown) => {
      throw new Error(`cannot reach ${target.baseUrl}: ${String(error)}`)
    })
    if (health.status !== 200) throw new Error(`${target.baseUrl}/healthz answered ${health.status}: ${health.text}`)
    const settings = await adminRequest(target, "GET", "/settings")
    if (settings.status !== 200) throw new Error(`the admin token was refused by ${target.baseUrl}/admin/v1 (${settings.status}): ${settings.text}`)
  })

  httpConformance(`remote host ${target.baseUrl}`, () => target)
}
