import * as Effect from "effect/Effect"
import { expect, it } from "vitest"
import { lockedForDispute, openOnPayment, undisputedRest } from "../../core/disputes/open-dispute.js"
import { submitDisputeEvidence } from "../../core/disputes/submit-evidence.js"
import type { DisputeEvidenceContext, PluginCapabilities } from "../../core/gateways/gateway-plugin.js"
import type { MerchantScope } from "../../core/merchants/merchant-scope.js"
import { Transactor } from "../../core/shared/transactor.js"
import type { GoldenContext } from "./golden-cases.js"
import { paidPayment } from "./refund-cases.js"

const EVIDENCE = { text: "Delivered and signed for.", files: [{ name: "receipt.pdf", contentBase64: "JVBERi0xLjQK" }] }

/**
 * A merchant's answer to a dispute reaches the plugin's gateway with the payment, the text and the
 * files; while the plugin fails, the dispute keeps waiting for the answer, which can be sent again.
 */
export const disputeEvidenceCases = (context: GoldenContext, capabilities: PluginCapabilities) => {
  const { controls, kit } = context

  it.skipIf(!capabilities.disputeEvidence)("dispute evidence: sent on with the payment, text and files; a failure leaves the dispute waiting for it", async () => {
    const checkout = await paidPayment(context)
    const dispute = await kit().run(Effect.flatMap(Transactor, ({ withTransaction }) =>
      withTransaction(Effect.gen(function*() {
        const { payment, held } = yield* lockedForDispute(checkout.trxId)
        return yield* openOnPayment(payment, { amount: undisputedRest(payment, held), reason: "fraudulent" })
      }))))
    const scope: MerchantScope = { merchant: kit().merchant, environment: kit().environment }

    controls().failOnce.add("submitDisputeEvidence")
    const failed = await kit().run(Effect.either(submitDisputeEvidence(scope, dispute.id, EVIDENCE)))
    expect(failed._tag === "Left" && failed.left._tag).toBe("PluginCallFailed")
    const answered = await kit().run(submitDisputeEvidence(scope, dispute.id, EVIDENCE))
    expect(answered.status).toBe("under_review")

    const sent = controls().calls.filter((call) => call.call === "submitDisputeEvidence").map((call) => call.context as DisputeEvidenceContext<unknown>)
      .filter((each) => each.disputeId === dispute.id)
    expect(sent).toHaveLength(2)
    expect(sent[1]).toMatchObject({ trxId: checkout.trxId, amount: checkout.amount, currency: checkout.currency, text: EVIDENCE.text, files: EVIDENCE.files })
  })
}
