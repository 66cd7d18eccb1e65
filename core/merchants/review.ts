import type { Environment } from "../shared/environment.js"
import type { MerchantStatus } from "./merchant.js"

/**
 * Whether a merchant in a review status may use an environment (spec 1, 5.9).
 * Pending merchants may use sandbox only; approved merchants both; the rest are blocked,
 * each with its own reason so the edge can answer with the right message and code.
 */
export type Availability =
  | { readonly _tag: "Available" }
  | { readonly _tag: "PendingApproval" }
  | { readonly _tag: "Suspended" }
  | { readonly _tag: "Blocked"; readonly status: "rejected" | "disabled" }

export const availability = (status: MerchantStatus, environment: Environment): Availability => {
  switch (status) {
    case "approved":
      return { _tag: "Available" }
    case "pending":
      return environment === "sandbox" ? { _tag: "Available" } : { _tag: "PendingApproval" }
    case "suspended":
      return { _tag: "Suspended" }
    case "rejected":
    case "disabled":
      return { _tag: "Blocked", status }
  }
}
