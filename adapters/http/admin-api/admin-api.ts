import { adminAuditEndpoints } from "./admin-audit-routes.js"
import { adminBillingSettingsEndpoints } from "./admin-billing-settings-routes.js"
import { adminCheckoutFrameEndpoints } from "./admin-checkout-frame-routes.js"
import { adminClockEndpoints } from "./admin-clock-routes.js"
import { adminGatewayEndpoints } from "./admin-gateway-routes.js"
import { adminLedgerEndpoints } from "./admin-ledger-routes.js"
import { adminMerchantEndpoints } from "./admin-merchant-routes.js"
import { adminMerchantUserEndpoints } from "./admin-merchant-user-routes.js"
import { adminPaymentEndpoints } from "./admin-payment-routes.js"
import { adminReconciliationEndpoints } from "./admin-reconciliation-routes.js"
import { adminPayoutFileEndpoints } from "./admin-payout-file-routes.js"
import { adminPayoutEndpoints } from "./admin-payout-routes.js"
import { adminDisputeEndpoints } from "./admin-dispute-routes.js"
import { adminSchedulerEndpoints } from "./admin-scheduler-routes.js"
import { adminSettingsEndpoints } from "./admin-settings-routes.js"
import { adminWalletEndpoints } from "./admin-wallet-routes.js"
import { adminWebhookEndpoints } from "./admin-webhook-routes.js"

/**
 * The operator's API under /admin/v1 (docs/admin-api.md), behind the admin bearer token: every
 * endpoint, in the order the reference shows them. The router and the OpenAPI document read this list.
 */
export const adminApi = [
  ...adminMerchantEndpoints,
  ...adminBillingSettingsEndpoints,
  ...adminCheckoutFrameEndpoints,
  ...adminMerchantUserEndpoints,
  ...adminWalletEndpoints,
  ...adminLedgerEndpoints,
  ...adminPayoutEndpoints,
  ...adminReconciliationEndpoints,
  ...adminPayoutFileEndpoints,
  ...adminDisputeEndpoints,
  ...adminGatewayEndpoints,
  ...adminSettingsEndpoints,
  ...adminClockEndpoints,
  ...adminSchedulerEndpoints,
  ...adminWebhookEndpoints,
  ...adminPaymentEndpoints,
  ...adminAuditEndpoints
] as const
