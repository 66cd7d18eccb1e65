import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { now } from "../shared/instant.js"
import { Transactor } from "../shared/transactor.js"
import { type Dispute, DisputeNotFound, type DisputeOutcome, DisputeRefused, DisputeTransitionRefused, isOpen } from "./dispute.js"
import { disputeMoved } from "./dispute-changes.js"
import { DisputeRepository } from "./dispute-repository.js"

/** Closes an open dispute, in the caller's transaction: won gives the held amount back, lost gives it to the gateway. */
export const closeOpenDispute = (dispute: Dispute, outcome: DisputeOutcome) =>
  Effect.gen(function*() {
    if (!isOpen(dispute.status)) {
      return yield* new DisputeTransitionRefused({ status: dispute.status, message: `This dispute is already ${dispute.status}; only an open dispute can be closed.` })
    }
    return yield* disputeMoved(dispute, { status: outcome, at: yield* now })
  })

/** An operator plays the card network in sandbox: POST /admin/v1/sandbox/disputes/{id}/close. */
export const closeSandboxDispute = (id: string, outcome: DisputeOutcome) =>
  Effect.flatMap(Transactor, ({ withTransaction }) =>
    withTransaction(Effect.gen(function*() {
      const found = yield* (yield* DisputeRepository).findForUpdate(id)
      if (Option.isNone(found)) return yield* new DisputeNotFound()
      if (found.value.environment !== "sandbox") {
        return yield* new DisputeRefused({ message: "Only a sandbox dispute can be closed here; production disputes are closed by the gateway." })
      }
      return yield* closeOpenDispute(found.value, outcome)
    })))
