import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeFakeStripe } from "./testing/fake-stripe.js"
import { failureOf, makeHarness, newTrxId, type Payment, run } from "./testing/stripe-plugin-harness.js"

const fake = makeFakeStripe()
const stripe = makeHarness(fake)

beforeAll(() => fake.start())
afterAll(() => fake.close())

const disputed = async (amount = "40.00") => {
  const payment: Payment = { trxId: newTrxId(), amount, currency: "USD" }
  const session = await stripe.begin(payment)
  fake.pay(session)
  const dispute = fake.openDispute(session)
  return { payment, disputeId: dispute["id"] as string }
}

const PDF = Buffer.from("%PDF-1.4 signed delivery receipt\n%%EOF").toString("base64")

describe("stripe-checkout submitDisputeEvidence", () => {
  it("uploads the file as dispute evidence and submits the text and the file on Stripe's dispute", async () => {
    const { payment, disputeId } = await disputed()
    const before = fake.requests().length
    const report = await run(stripe.plugin.submitDisputeEvidence(stripe.evidence(payment, {
      gatewayDisputeId: disputeId,
      text: "Delivered to the cardholder's address on 3 March; signed receipt attached.",
      files: [{ name: "receipt.pdf", contentBase64: PDF }]
    })))
    expect(report).toEqual({ status: "submitted" })

    const [upload, update] = fake.requests().slice(before)
    expect(upload).toMatchObject({ method: "POST", path: "/v1/files", params: { purpose: "dispute_evidence", file: "receipt.pdf" } })
    expect(update).toMatchObject({ method: "POST", path: `/v1/disputes/${disputeId}` })
    const fileId = update!.params["evidence[uncategorized_file]"]!
    expect(update!.params).toMatchObject({
      "evidence[uncategorized_text]": "Delivered to the cardholder's address on 3 March; signed receipt attached.",
      submit: "true",
      "metadata[trx_id]": payment.trxId
    })
    // The bytes Stripe keeps are the merchant's, byte for byte.
    expect(Buffer.from(fake.uploadedFile(fileId)!.bytes).toString("base64")).toBe(PDF)
    expect(fake.dispute(disputeId)).toMatchObject({ status: "under_review", evidence: { uncategorized_file: fileId }, evidence_details: { has_evidence: true, submission_count: 1 } })
  })

  it("sends text alone when no file came with it", async () => {
    const { payment, disputeId } = await disputed()
    expect(await run(stripe.plugin.submitDisputeEvidence(stripe.evidence(payment, { gatewayDisputeId: disputeId, text: "The customer used the service for a month." }))))
      .toEqual({ status: "submitted" })
    const update = fake.requests().at(-1)!
    expect(update.params["evidence[uncategorized_file]"]).toBeUndefined()
    expect(fake.dispute(disputeId)).toMatchObject({ status: "under_review", evidence: { uncategorized_text: "The customer used the service for a month." } })
  })

  it("answers refused with Stripe's words when Stripe will not take it: a closed dispute, a file type it does not accept", async () => {
    const closed = await disputed()
    fake.closeDispute(closed.disputeId, "lost")
    expect(await run(stripe.plugin.submitDisputeEvidence(stripe.evidence(closed.payment, { gatewayDisputeId: closed.disputeId, text: "Too late?" }))))
      .toEqual({ status: "refused", message: `Stripe refused the evidence: This dispute is lost and can no longer be updated.` })

    const open = await disputed()
    const before = fake.requests().length
    expect(await run(stripe.plugin.submitDisputeEvidence(stripe.evidence(open.payment, {
      gatewayDisputeId: open.disputeId, text: "See the spreadsheet.", files: [{ name: "orders.xlsx", contentBase64: PDF }]
    })))).toEqual({ status: "refused", message: "Stripe refused the evidence: Dispute evidence must be a PDF, JPEG or PNG file." })
    // Nothing was submitted: the dispute still waits for the merchant's answer.
    expect(fake.requests().slice(before).map((request) => request.path)).toEqual(["/v1/files"])
    expect(fake.dispute(open.disputeId)).toMatchObject({ status: "needs_response" })
  })

  it("refuses, before calling Stripe, more files than Stripe's one uncategorized file; a dispute Stripe never opened (sandbox) is not sent", async () => {
    const { payment, disputeId } = await disputed()
    const before = fake.requests().length
    const two = [{ name: "a.pdf", contentBase64: PDF }, { name: "b.pdf", contentBase64: PDF }]
    expect(await run(stripe.plugin.submitDisputeEvidence(stripe.evidence(payment, { gatewayDisputeId: disputeId, text: "Two receipts.", files: two }))))
      .toMatchObject({ status: "refused", message: expect.stringContaining("one uncategorized file") })
    expect(await run(stripe.plugin.submitDisputeEvidence(stripe.evidence(payment, { gatewayDisputeId: null, text: "Kit-made dispute." }))))
      .toEqual({ status: "submitted" })
    expect(fake.requests().length).toBe(before)
  })

  it("fails the call, and keeps the dispute waiting, when Stripe refuses the key", async () => {
    const { payment, disputeId } = await disputed()
    const wrongKey = { ...stripe.evidence(payment, { gatewayDisputeId: disputeId, text: "Delivered." }), config: stripe.parsed({ secret_key: "sk_test_wrongKey000000000000000000000" }) }
    expect(await failureOf(stripe.plugin.submitDisputeEvidence(wrongKey))).toMatchObject({ _tag: "PluginCallFailed", call: "submitDisputeEvidence" })
    expect(fake.dispute(disputeId)).toMatchObject({ status: "needs_response" })
  })
})
