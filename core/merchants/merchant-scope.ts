import type { Environment } from "../shared/environment.js"
import type { Merchant } from "./merchant.js"

/**
 * Whose data a use case may touch: one merchant in one environment. A signed API call
 * (AuthenticatedMerchant) and a dashboard session both arrive as one; the use cases read nothing else
 * of the caller, so the same code answers both.
 */
export interface MerchantScope {
  readonly merchant: Merchant
  readonly environment: Environment
}
