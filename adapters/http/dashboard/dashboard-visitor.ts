import type { Merchant } from "../../../core/merchants/merchant.js"
import type { UserRole } from "../../../core/merchant-users/merchant-user.js"

/** Who is looking at the dashboard, and for which merchant: from the kit's session or the platform's. */
export interface DashboardVisitor {
  readonly merchant: Merchant
  /** The kit user's id, or the platform's own user id. */
  readonly userId: string
  /** What the header shows and the audit log keeps: the kit user's email, or the platform's user id. */
  readonly name: string
  readonly role: UserRole
  /** What the visitor's form tokens are bound to: its kit session, or its platform user. */
  readonly boundTo: string
  /** Whether the kit signed the visitor in (and offers sign-out) or the platform did. */
  readonly signedInBy: "kit" | "platform"
}
