import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { checkoutFrameAncestors, MAX_FRAME_ANCESTORS, replaceCheckoutFrameAncestors } from "../../../core/merchants/checkout-frames.js"
import { MerchantId } from "../../../core/shared/ids.js"
import { stringArray } from "../contract/field-rules.js"
import { merchantIdInPath } from "../contract/parameters.js"
import { bodyContract, validBody } from "../contract/read-body.js"
import { PositiveId } from "../contract/value-schemas.js"
import { endpoint } from "../endpoint/endpoint.js"

// The merchant's embed setting, apart from the merchant's own fields: which sites may frame its
// hosted checkout (docs/admin-api.md, merchants).

const CheckoutFrameAncestors = Schema.Struct({
  merchant_id: PositiveId,
  checkout_frame_ancestors: Schema.Array(Schema.String).annotations({
    description: "Origins allowed to frame the merchant's checkout pages (CSP frame-ancestors), normalised; empty: nobody."
  })
}).annotations({ identifier: "CheckoutFrameAncestors" })

const replaceBody = bodyContract("ReplaceCheckoutFrameAncestorsRequest", "The origins allowed to frame the merchant's checkout; empty: nobody.", {
  checkout_frame_ancestors: stringArray({
    required: true,
    maxItems: 50,
    description: `https origins only (scheme, host, optional port), no path or wildcard, at most ${MAX_FRAME_ANCESTORS}.`
  })
})

const merchantId = Effect.map(merchantIdInPath.read, MerchantId)

const answer = (id: MerchantId, origins: ReadonlyArray<string>) => ({ merchant_id: id, checkout_frame_ancestors: origins })

const get = endpoint({
  method: "get",
  path: "/admin/v1/merchants/{id}/checkout-frame-ancestors",
  operationId: "getCheckoutFrameAncestors",
  summary: "The origins allowed to frame the merchant's checkout",
  tag: "Admin: merchants",
  security: "admin",
  parameters: [merchantIdInPath],
  success: { status: 200, description: "The list, in the order it was given.", schema: CheckoutFrameAncestors },
  errors: ["MerchantNotFound"],
  handler: Effect.gen(function*() {
    const id = yield* merchantId
    return answer(id, yield* checkoutFrameAncestors(id))
  })
})

const replace = endpoint({
  method: "put",
  path: "/admin/v1/merchants/{id}/checkout-frame-ancestors",
  operationId: "replaceCheckoutFrameAncestors",
  summary: "Replace the origins allowed to frame the merchant's checkout",
  description: "Its checkout pages then send exactly these in `Content-Security-Policy: frame-ancestors` (and no `X-Frame-Options`), " +
    "and tell the framing page how the payment ended; every other page stays unframeable.",
  tag: "Admin: merchants",
  security: "admin",
  parameters: [merchantIdInPath],
  body: replaceBody,
  success: { status: 200, description: "The list as kept.", schema: CheckoutFrameAncestors },
  errors: ["MerchantNotFound"],
  handler: Effect.gen(function*() {
    const id = yield* merchantId
    const { checkout_frame_ancestors } = yield* validBody(replaceBody)
    return answer(id, yield* replaceCheckoutFrameAncestors(id, checkout_frame_ancestors))
  })
})

export const adminCheckoutFrameEndpoints = [get, replace] as const
