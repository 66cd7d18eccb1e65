import { describe, expect, it } from "vitest"
import { loggedPath } from "./request-log.js"

describe("the path as logged", () => {
  it("keeps query keys and drops their values", () => {
    expect(loggedPath("/admin/v1/webhook-deliveries?status=failed&merchant_id=7")).toBe("/admin/v1/webhook-deliveries?status&merchant_id")
    expect(loggedPath("/api/v1/site-info?")).toBe("/api/v1/site-info")
    expect(loggedPath("/api/v1/site-info")).toBe("/api/v1/site-info")
  })

  it("re-encodes keys, so a crafted key cannot break the line", () => {
    expect(loggedPath("/x?a%0Ab=1&a%0Ab=2")).toBe("/x?a%0Ab")
  })

  it("hides a checkout link's token: the link grants access to the page", () => {
    expect(loggedPath("/checkout/eyJhbGciOi.sig")).toBe("/checkout/:token")
    expect(loggedPath("/checkout/eyJhbGciOi.sig/pay?gateway_id=2")).toBe("/checkout/:token/pay?gateway_id")
    expect(loggedPath("/payments/checkout/eyJhbGciOi.sig")).toBe("/payments/checkout/:token")
  })

  it("hides a set-password link's token, mounted or not", () => {
    expect(loggedPath("/dashboard/set-password/Zm9vYmFyYmF6cXV4")).toBe("/dashboard/set-password/:token")
    expect(loggedPath("/payments/dashboard/set-password/Zm9vYmFyYmF6cXV4")).toBe("/payments/dashboard/set-password/:token")
  })
})
