import { describe, expect, it } from "vitest"
import { availability } from "./review.js"

describe("merchant review gates environments", () => {
  it("pending merchants may use sandbox only", () => {
    expect(availability("pending", "sandbox")).toEqual({ _tag: "Available" })
    expect(availability("pending", "production")).toEqual({ _tag: "PendingApproval" })
  })

  it("approved merchants may use both", () => {
    expect(availability("approved", "sandbox")).toEqual({ _tag: "Available" })
    expect(availability("approved", "production")).toEqual({ _tag: "Available" })
  })

  it("suspended, rejected and disabled merchants are blocked in both, each with its reason", () => {
    for (const environment of ["sandbox", "production"] as const) {
      expect(availability("suspended", environment)).toEqual({ _tag: "Suspended" })
      expect(availability("rejected", environment)).toEqual({ _tag: "Blocked", status: "rejected" })
      expect(availability("disabled", environment)).toEqual({ _tag: "Blocked", status: "disabled" })
    }
  })
})
