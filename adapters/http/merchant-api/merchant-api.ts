import { balanceEndpoints } from "./balance-routes.js"
import { customerPortalEndpoints } from "./customer-portal-routes.js"
import { eventEndpoints } from "./event-routes.js"
import { paymentEndpoints } from "./payment-routes.js"
import { payoutDestinationEndpoints } from "./payout-destination-routes.js"
import { payoutEndpoints } from "./payout-routes.js"
import { payoutSettingsEndpoints } from "./payout-settings-routes.js"
import { billingSettingsEndpoints } from "./billing-settings-routes.js"
import { disputeEndpoints } from "./dispute-routes.js"
import { refundEndpoints } from "./refund-routes.js"
import { requestLogEndpoints } from "./request-log-routes.js"
import { siteInfoEndpoints } from "./site-info-routes.js"
import { subscriptionEndpoints } from "./subscription-routes.js"
import { invoiceDocumentEndpoints } from "./invoice-document-routes.js"
import { testClockEndpoints } from "./test-clock-routes.js"
import { webhookEndpointEndpoints } from "./webhook-endpoint-routes.js"

/**
 * The merchant API (spec 4), signed per spec 5: every endpoint, in the order the reference shows
 * them. The router, the OpenAPI document and the client's operation table are all read from this list.
 */
export const merchantApi = [...paymentEndpoints, ...refundEndpoints, ...siteInfoEndpoints, ...subscriptionEndpoints, ...billingSettingsEndpoints, ...testClockEndpoints, ...invoiceDocumentEndpoints, ...customerPortalEndpoints, ...balanceEndpoints, ...payoutSettingsEndpoints, ...payoutDestinationEndpoints, ...payoutEndpoints, ...disputeEndpoints, ...eventEndpoints, ...webhookEndpointEndpoints, ...requestLogEndpoints] as const
