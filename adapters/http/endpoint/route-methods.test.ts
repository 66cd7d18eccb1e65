import type { HttpRouter } from "@effect/platform"
import { describe, expect, it } from "vitest"
import { router } from "../app.js"
import { allowedMethods, routeTemplate } from "./route-methods.js"

const kitRouter = router as HttpRouter.HttpRouter<unknown, unknown>

describe("the router read back: which methods a path answers, and which template a request took", () => {
  const templateOf = routeTemplate(kitRouter)

  it("names the declared template, never the path's own ids", () => {
    expect(templateOf("GET", "/api/v1/verify-payment/SANDBOX_ABC123")).toBe("/api/v1/verify-payment/:trxId")
    expect(templateOf("POST", "/api/v1/initiate-payment")).toBe("/api/v1/initiate-payment")
    expect(templateOf("GET", "/checkout/some-signed-token/return/7")).toBe("/checkout/*")
    expect(templateOf("GET", "/admin/v1/merchants/42")).toBe("/admin/v1/merchants/:id")
  })

  it("takes a literal segment over a parameter in the same place, and HEAD as GET", () => {
    expect(templateOf("POST", "/api/v1/events/recover")).toBe("/api/v1/events/recover")
    expect(templateOf("GET", "/api/v1/events/evt_1")).toBe("/api/v1/events/:eventId")
    expect(templateOf("HEAD", "/healthz")).toBe("/healthz")
  })

  it("has no template for a path or a method no route takes", () => {
    expect(templateOf("GET", "/no/such/path")).toBeUndefined()
    expect(templateOf("DELETE", "/api/v1/initiate-payment")).toBeUndefined()
    expect(allowedMethods(kitRouter)("/api/v1/initiate-payment")).toEqual(["POST"])
  })
})
