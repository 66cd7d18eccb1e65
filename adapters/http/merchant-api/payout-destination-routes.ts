import * as Effect from "effect/Effect"
import type { PayoutDestination } from "../../../core/payouts/payout-destination.js"
import {
  createPayoutDestination,
  createStripeAccountDestination,
  deletePayoutDestination,
  listPayoutDestinations
} from "../../../core/payouts/payout-destinations.js"
import { toIsoString } from "../../../core/shared/instant.js"
import * as Contract from "../contract/payout-destination-contracts.js"
import { textInPath } from "../contract/parameters.js"
import { readJsonBody } from "../contract/read-body.js"
import { endpoint } from "../endpoint/endpoint.js"
import { CurrentMerchant } from "../endpoint/merchant-endpoint.js"
import { ResourceNotFound } from "../response/edge-errors.js"

/** A destination as answered: the masked IBAN only, never the sealed one. */
const destinationJson = (destination: PayoutDestination) =>
  destination.type === "stripe_account"
    ? {
      id: destination.id,
      type: "stripe_account" as const,
      account_id: destination.accountId ?? "",
      currency: destination.currency,
      created_at: toIsoString(destination.createdAt)
    }
    : {
      id: destination.id,
      type: "bank_account" as const,
      account_holder: destination.accountHolder,
      iban_masked: destination.ibanMasked,
      bic: destination.bic,
      currency: destination.currency,
      created_at: toIsoString(destination.createdAt)
    }

const TAG = "Payout destinations"
const destinationIdInPath = textInPath("destinationId", "The payout destination's id.")

const create = endpoint({
  method: "post",
  path: "/api/v1/payout-destinations",
  operationId: "createPayoutDestination",
  summary: "Add a bank account or a Stripe connected account payouts may go to",
  description: "In the environment of the request. A bank account's IBAN is checked, stored sealed and answered masked; " +
    "a Stripe connected account is paid by the Stripe plugin's Connect transfers.",
  tag: TAG,
  security: "merchant",
  body: Contract.createPayoutDestinationBody,
  success: { status: 201, description: "The destination (also for an idempotent replay).", schema: Contract.PayoutDestinationEnvelope },
  errors: ["PayoutDestinationLimitReached"],
  handler: Effect.gen(function*() {
    const body = yield* Contract.requireFieldsOfType(yield* readJsonBody(Contract.createPayoutDestinationBody)).done((valid) => valid)
    const scope = yield* CurrentMerchant
    const destination = body.type === "stripe_account"
      ? yield* createStripeAccountDestination(scope, { accountId: body.account_id ?? "", currency: body.currency })
      : yield* createPayoutDestination(scope, {
        accountHolder: body.account_holder ?? "",
        iban: body.iban ?? "",
        bic: body.bic ?? null,
        currency: body.currency
      })
    return { data: destinationJson(destination) }
  })
})

const list = endpoint({
  method: "get",
  path: "/api/v1/payout-destinations",
  operationId: "listPayoutDestinations",
  summary: "The merchant's payout destinations",
  description: "Those of the environment of the request, oldest first.",
  tag: TAG,
  security: "merchant",
  success: { status: 200, description: "The destinations.", schema: Contract.PayoutDestinationList },
  handler: Effect.map(Effect.flatMap(CurrentMerchant, listPayoutDestinations), (destinations) => ({ data: destinations.map(destinationJson) }))
})

const remove = endpoint({
  method: "delete",
  path: "/api/v1/payout-destinations/{destinationId}",
  operationId: "deletePayoutDestination",
  summary: "Delete a payout destination",
  description: "No payout goes to it afterwards. Another merchant's or environment's id is not found.",
  tag: TAG,
  security: "merchant",
  parameters: [destinationIdInPath],
  success: { status: 200, description: "The destination is gone.", schema: Contract.DeletedPayoutDestination },
  handler: Effect.gen(function*() {
    const id = yield* destinationIdInPath.read
    const deleted = yield* deletePayoutDestination(yield* CurrentMerchant, id)
    if (!deleted) return yield* new ResourceNotFound({ resource: "Payout destination" })
    return { data: { id, deleted: true as const } }
  })
})

/** Where the merchant's payouts go (issue 35, item 3): add, list, delete. */
export const payoutDestinationEndpoints = [create, list, remove] as const
