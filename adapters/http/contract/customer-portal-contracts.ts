import * as Schema from "effect/Schema"
import { dataOf } from "./envelopes.js"
import { email, url } from "./field-rules.js"
import { bodyContract } from "./read-body.js"
import { HttpUrl, Timestamp } from "./value-schemas.js"

/** Issue 36 item 5: a single-use link to one customer's billing with the merchant. */
export const createCustomerPortalSessionBody = bodyContract(
  "CreateCustomerPortalSessionRequest",
  "A single-use, one-hour link to the portal of one customer (by e-mail) in the request's environment.",
  {
    customer_email: email({ required: true, max: 150, description: "The customer whose subscriptions the portal shows (matched without case)." }),
    return_url: url({ required: true, max: 255, description: "The merchant's page the portal's \"Return to\" link leads back to." })
  }
)

export const CustomerPortalSession = Schema.Struct({
  url: HttpUrl.annotations({ description: "Send the customer here. It works once: the first visit opens a one-hour portal session." }),
  expires_at: Timestamp.annotations({ description: "The link is refused after this instant (one hour)." })
}).annotations({ identifier: "CustomerPortalSession", description: "A customer portal link." })

export const CustomerPortalSessionEnvelope = dataOf(CustomerPortalSession, "CustomerPortalSessionResponse")
