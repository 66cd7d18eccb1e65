import { describe, expect, it } from "vitest"
import { expectError, expectOk } from "./assertions.js"
import { createShop, gatewayMaker, IPN_URL, simulate, startSession } from "./payment-fixtures.js"
import { adminRequest, type Target } from "./signing.js"

interface DeliveryBody {
  readonly id: string
  readonly merchant_id: number
  readonly environment: string
  readonly event: string
  readonly url: string
  readonly status: string
  readonly attempts: number
}

/** The operator's view of webhooks: every event a payment produced, with its attempts. */
export const webhookLogCases = (target: () => Target) =>
  describe("webhook delivery log (admin)", () => {
    const makeGateway = gatewayMaker(target)

    it("lists the event of a completed payment for its merchant, filtered by status, with its attempt log", async () => {
      await makeGateway()
      const shop = await createShop(target())
      const session = await startSession(shop.sandbox)
      expect((await simulate(shop.sandbox, session.info.trx_id, "success")).status).toBe(200)
      const deliveries = expectOk(await adminRequest(target(), "GET", `/webhook-deliveries?merchant_id=${shop.merchant.id}`)).data as ReadonlyArray<DeliveryBody>
      expect(deliveries.length).toBe(1)
      const [delivery] = deliveries
      expect(delivery).toMatchObject({ merchant_id: shop.merchant.id, environment: "sandbox", event: "payment.completed", url: IPN_URL })
      expect(["pending", "delivered", "failed"]).toContain(delivery!.status)

      const byStatus = await adminRequest(target(), "GET", `/webhook-deliveries?merchant_id=${shop.merchant.id}&status=${delivery!.status}`)
      expect((expectOk(byStatus).data as ReadonlyArray<DeliveryBody>).map((d) => d.id)).toContain(delivery!.id)
      const other = delivery!.status === "delivered" ? "failed" : "delivered"
      const none = await adminRequest(target(), "GET", `/webhook-deliveries?merchant_id=${shop.merchant.id}&status=${other}`)
      expect((expectOk(none).data as ReadonlyArray<DeliveryBody>).map((d) => d.id)).not.toContain(delivery!.id)

      const detail = expectOk(await adminRequest(target(), "GET", `/webhook-deliveries/${delivery!.id}`))
      expect([detail.id, Array.isArray(detail.attempt_log)]).toEqual([delivery!.id, true])
    })

    it("refuses a bad filter with 422 and answers 404 for an unknown delivery, on read and on redelivery", async () => {
      expectError(await adminRequest(target(), "GET", "/webhook-deliveries?status=lost"), { status: 422, errorCode: "VALIDATION_FAILED" })
      expectError(await adminRequest(target(), "GET", "/webhook-deliveries?merchant_id=abc"), { status: 422, errorCode: "VALIDATION_FAILED" })
      expectError(await adminRequest(target(), "GET", "/webhook-deliveries/00000000-0000-4000-8000-000000000000"), { status: 404, errorCode: "NOT_FOUND" })
      expectError(await adminRequest(target(), "POST", "/webhook-deliveries/00000000-0000-4000-8000-000000000000/redeliver"), { status: 404, errorCode: "NOT_FOUND" })
    })

    it("lists failing webhook targets of one merchant, and refuses a bad merchant id with 422", async () => {
      const shop = await createShop(target())
      const listed = expectOk(await adminRequest(target(), "GET", `/webhook-targets?merchant_id=${shop.merchant.id}`))
      expect(listed).toEqual({ data: [] })
      const all = expectOk(await adminRequest(target(), "GET", "/webhook-targets")).data as ReadonlyArray<Record<string, unknown>>
      for (const failing of all) expect(Object.keys(failing).sort()).toEqual(["environment", "failing_since", "merchant_id", "paused_at", "target"])
      for (const bad of ["abc", "0", "-1", "1.5"]) {
        expectError(await adminRequest(target(), "GET", `/webhook-targets?merchant_id=${bad}`), { status: 422, errorCode: "VALIDATION_FAILED", fields: ["merchant_id"] })
      }
    })
  })
