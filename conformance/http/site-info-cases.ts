import { describe, expect, it } from "vitest"
import { expectError, expectJson, expectOk } from "./assertions.js"
import { merchantCaller, readSettings } from "./fixtures.js"
import { rawRequest, type Target } from "./signing.js"

const NOT_FOUND = { status: 404, errorCode: "NOT_FOUND", message: "Not found.", errors: {} }

/** Spec 2.7, 4.4, 9.2: site-info; plus the unauthenticated health check and unknown routes. */
export const siteInfoCases = (target: () => Target) =>
  describe("site-info, health and unknown routes", () => {
    it("answers GET /api/v1/site-info with 200 and exactly the fields of spec 2.7", async () => {
      const caller = await merchantCaller(target())
      const body = expectOk(await caller.call())
      expect(Object.keys(body).sort()).toEqual([
        "api_version", "environments", "features", "gateway_description", "gateway_name",
        "site_logo", "site_name", "site_url", "status"
      ])
      for (const field of ["site_name", "site_logo", "site_url", "gateway_name", "gateway_description"]) {
        expect(typeof body[field], field).toBe("string")
      }
      expect(body.site_logo).toMatch(/^https?:\/\//)
      expect(body.site_url).toMatch(/^https?:\/\//)
      expect(Object.keys(body.features).sort()).toEqual(["global_support", "instant_processing", "mobile_ready", "ssl_secured"])
      for (const label of Object.values(body.features)) expect(typeof label).toBe("string")
      expect(Object.keys(body.environments).sort()).toEqual(["production", "sandbox"])
      for (const label of Object.values(body.environments)) expect(typeof label).toBe("string")
      expect(body.api_version).toBe("1.0")
      expect(body.status).toBe("active")
    })

    it("takes its branding from the administrator's settings", async () => {
      const settings = await readSettings(target())
      const body = expectOk(await (await merchantCaller(target())).call())
      expect(body).toMatchObject({
        site_name: settings.site_name,
        site_logo: settings.site_logo,
        site_url: settings.site_url,
        gateway_name: settings.gateway_name,
        gateway_description: settings.gateway_description
      })
    })

    it("answers the same in production as in sandbox", async () => {
      const sandbox = await (await merchantCaller(target(), { environment: "sandbox" })).call()
      const production = await (await merchantCaller(target(), { environment: "production" })).call()
      expect(expectOk(production)).toEqual(expectOk(sandbox))
    })

    it("refuses site-info without any credentials with 401", async () => {
      const response = await rawRequest(target(), { method: "GET", path: "/api/v1/site-info", headers: { accept: "application/json" } })
      expectError(response, { status: 401, errorCode: "INVALID_CREDENTIALS", message: "Invalid API credentials.", fields: ["X-Environment"] })
    })

    it("answers GET /healthz with 200 {\"status\":\"ok\"} and no credentials", async () => {
      const response = await rawRequest(target(), { method: "GET", path: "/healthz" })
      expect(response.status).toBe(200)
      expect(expectJson(response)).toEqual({ status: "ok" })
    })

    it("answers GET /readyz with 200 {\"status\":\"ready\"} and no credentials: its store answers and is migrated", async () => {
      const response = await rawRequest(target(), { method: "GET", path: "/readyz" })
      expect(response.status, response.text).toBe(200)
      expect(expectJson(response)).toEqual({ status: "ready" })
    })

    it.each([
      ["GET", "/"],
      ["GET", "/api/v1/unknown"],
      ["GET", "/api/v2/site-info"],
      ["GET", "/api/v1/site-info/extra"],
      ["GET", "/admin/v2/settings"]
    ])("answers %s %s with the JSON 404 NOT_FOUND body", async (method, path) => {
      expectError(await rawRequest(target(), { method, path, headers: { accept: "application/json" } }), NOT_FOUND)
    })

    it.each([
      ["POST", "/api/v1/site-info", "GET, HEAD"],
      ["DELETE", "/api/v1/site-info", "GET, HEAD"],
      ["POST", "/healthz", "GET, HEAD"]
    ])("answers %s %s, a known path, with 405 and Allow: %s", async (method, path, allow) => {
      const response = await rawRequest(target(), { method, path, headers: { accept: "application/json" } })
      expectError(response, { status: 405, errorCode: "METHOD_NOT_ALLOWED", errors: {} })
      expect(response.headers["allow"]).toBe(allow)
    })

    it.each([
      ["GET", "/admin/v1/unknown", 404],
      ["DELETE", "/admin/v1/settings", 405]
    ])("answers %s %s 401 without the admin token, %s with it", async (method, path, status) => {
      expectError(await rawRequest(target(), { method, path, headers: { accept: "application/json" } }), {
        status: 401, errorCode: "UNAUTHORIZED", errors: {}
      })
      const { adminToken } = target()
      const answered = await rawRequest(target(), { method, path, headers: { accept: "application/json", authorization: `Bearer ${adminToken}` } })
      expectError(answered, { status, errors: {} })
    })

    it("answers an unknown route with 404 even with valid merchant credentials", async () => {
      const caller = await merchantCaller(target())
      expectError(await caller.call({ path: "/api/v1/verify-payments/none" }), NOT_FOUND)
    })
  })
