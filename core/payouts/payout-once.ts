import { oncePerFormKey } from "../idempotency/form-key.js"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { requestPayout, type PayoutRequest } from "./request-payout.js"

const amountText = (request: PayoutRequest) => (request.amount.kind === "string" ? request.amount.value : request.amount.text)

/** A payout asked for at most once per key (the dashboard's payout form), answered with its id. */
export const payoutOncePerKey = (scope: MerchantScope, request: PayoutRequest, key: string) =>
  oncePerFormKey(
    scope,
    { namespace: "dashboard-payout", operation: "createPayout", input: `${amountText(request)}\n${request.currency}\n${request.destinationId}`, key },
    requestPayout(scope, request),
    (payout) => payout.id
  )
