import * as Effect from "effect/Effect"
import { openPortalLink } from "../../../core/customer-portal/portal-links.js"
import { CheckoutLinks } from "../../../core/payments/checkout-links.js"
import { toIsoString } from "../../../core/shared/instant.js"
import { CustomerPortalSessionEnvelope, createCustomerPortalSessionBody } from "../contract/customer-portal-contracts.js"
import { validBody } from "../contract/read-body.js"
import { portalLinkUrl } from "../customer-portal/portal-paths.js"
import { endpoint } from "../endpoint/endpoint.js"
import { CurrentMerchant } from "../endpoint/merchant-endpoint.js"

// X-Environment defaults to production, as on the subscription endpoints whose customers the portal serves.
const create = endpoint({
  method: "post",
  path: "/api/v1/customer-portal-sessions",
  operationId: "createCustomerPortalSession",
  summary: "A single-use link to a customer's billing portal",
  description: "The portal shows the customer's subscriptions with the merchant in the request's environment and their invoices, " +
    "lets them pay an open invoice and cancel at period end (when the merchant allows it). The link opens once, within an hour. " +
    "The answer holds a bearer secret, so it is never stored for Idempotency-Key replay: a repeated request makes a new link.",
  tag: "Subscriptions",
  security: "merchant-production-default",
  body: createCustomerPortalSessionBody,
  success: { status: 201, description: "The link and when it expires.", schema: CustomerPortalSessionEnvelope },
  secretAnswer: true,
  handler: Effect.gen(function*() {
    const body = yield* validBody(createCustomerPortalSessionBody)
    const link = yield* openPortalLink(yield* CurrentMerchant, { customerEmail: body.customer_email, returnUrl: body.return_url })
    const links = yield* CheckoutLinks
    return { data: { url: portalLinkUrl(links.baseUrl, link.token), expires_at: toIsoString(link.expiresAt) } }
  })
})

export const customerPortalEndpoints = [create] as const
