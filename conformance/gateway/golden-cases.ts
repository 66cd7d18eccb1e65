import { expect, it } from "vitest"
import { sweepSyncs } from "../../core/payments/status-sync.js"
import type { CheckoutAtGateway, GatewayDriver, GatewayNotification } from "./driver.js"
import type { KitUnderTest } from "./kit-harness.js"
import { deliver } from "./notification-delivery.js"
import type { PluginControls } from "./plugin-controls.js"

export interface GoldenContext {
  readonly kit: () => KitUnderTest
  readonly controls: () => PluginControls
  readonly driver: GatewayDriver
}

/** A payment the customer has taken to the gateway. */
const atGateway = async (kit: KitUnderTest): Promise<CheckoutAtGateway> => {
  const payment = await kit.initiate()
  const { answer, checkout } = await kit.choose(payment)
  expect(checkout, `choosing the gateway answered ${answer.status}: ${answer.body.slice(0, 300)}`).toBeDefined()
  return checkout!
}

/** The payment completed once: success, one wallet credit, one completed event. */
const expectPaidOnce = async (kit: KitUnderTest, trxId: string) => {
  const payment = await kit.payment(trxId)
  expect([payment.status, payment.gatewayId]).toEqual(["success", kit.gateway.id])
  expect(await kit.credits(trxId)).toBe(1)
  expect(await kit.events(trxId)).toEqual(["payment.completed"])
}

const expectUntouched = async (kit: KitUnderTest, trxId: string) => {
  expect((await kit.payment(trxId)).status).toBe("pending")
  expect(await kit.credits(trxId)).toBe(0)
  expect(await kit.events(trxId)).toEqual([])
}

const returnFieldsOf = async (driver: GatewayDriver, checkout: CheckoutAtGateway, outcome: "paid" | "declined" | "cancelled") => {
  const action = await driver.customer(checkout, outcome)
  return action !== undefined && "returnFields" in action ? action.returnFields : undefined
}

/**
 * The golden cases: what a customer, a gateway and a forger can do to a payment, against a whole kit
 * hosting the plugin. A case the plugin cannot take part in (no notifications, no status sync...)
 * is skipped by name, so a report shows what was and was not proven.
 */
export const goldenCases = ({ controls, driver, kit }: GoldenContext, capabilities: { readonly notifications: boolean; readonly statusSync: boolean }) => {
  const notifies = capabilities.notifications && driver.notification !== undefined
  const notification = (checkout: CheckoutAtGateway, outcome: "paid" | "declined" | "cancelled", options?: { readonly amount?: string }) =>
    driver.notification!(checkout, outcome, options)

  it("paid by return: the customer comes back and the payment completes once", async () => {
    const checkout = await atGateway(kit())
    const fields = await returnFieldsOf(driver, checkout, "paid")
    expect(fields, "the driver must bring a paying customer back with the gateway's fields").toBeDefined()
    const answer = await kit().comeBack(checkout, { returnFields: fields! })
    expect([answer.status, answer.location?.startsWith("https://shop.example/ok")]).toEqual([303, true])
    await expectPaidOnce(kit(), checkout.trxId)
    // The customer presses reload: nothing moves twice.
    await kit().comeBack(checkout, { returnFields: fields! })
    await expectPaidOnce(kit(), checkout.trxId)
  })

  it("declined: the attempt ends, not the payment: it stays pending for another try, no money moves, no event", async (test) => {
    const checkout = await atGateway(kit())
    const action = await driver.customer(checkout, "declined")
    if (action !== undefined) await kit().comeBack(checkout, action)
    else if (notifies) await kit().notify(await notification(checkout, "declined"))
    else return test.skip("the driver cannot have the gateway decline a payment")
    await expectUntouched(kit(), checkout.trxId)
  })

  it("cancelled: the payment fails as cancelled, no money moves", async (test) => {
    const checkout = await atGateway(kit())
    const action = await driver.customer(checkout, "cancelled")
    if (action !== undefined) await kit().comeBack(checkout, action)
    else if (notifies) await kit().notify(await notification(checkout, "cancelled"))
    else return test.skip("the driver cannot end a payment as cancelled")
    const payment = await kit().payment(checkout.trxId)
    expect([payment.status, payment.failureReason]).toEqual(["failed", "cancelled"])
    expect(await kit().credits(checkout.trxId)).toBe(0)
  })

  it("never completes a forged return or one replayed against another payment", async () => {
    const paid = await atGateway(kit())
    const fields = await returnFieldsOf(driver, paid, "paid")
    const other = await atGateway(kit())
    const forgeries: ReadonlyArray<Readonly<Record<string, string>>> = [
      {},
      { outcome: "paid" },
      { status: "paid", paid: "true", success: "1", result: "success" },
      { trx_id: other.trxId, outcome: "paid", status: "paid", signature: "0".repeat(64) },
      ...(fields === undefined ? [] : [fields, Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, value.replaceAll(paid.trxId, other.trxId)]))])
    ]
    for (const forged of forgeries) {
      const answer = await kit().comeBack(other, { returnFields: forged })
      expect(answer.status, JSON.stringify(forged)).not.toBe(303)
    }
    await expectUntouched(kit(), other.trxId)
  })

  it.skipIf(!notifies)("paid by notification alone: the customer never comes back", async () => {
    const checkout = await atGateway(kit())
    await driver.customer(checkout, "paid")
    const answer = await kit().notify(await notification(checkout, "paid"))
    expect(answer.status).toBeLessThan(300)
    await expectPaidOnce(kit(), checkout.trxId)
  })

  it.skipIf(!notifies)("a notification sent three times, and duplicated out of order, completes once", async () => {
    const checkout = await atGateway(kit())
    await driver.customer(checkout, "paid")
    const paid = await notification(checkout, "paid")
    const answers = await deliver([paid], { duplicate: 3, send: kit().notify })
    for (const answer of answers) expect(answer.status).toBeLessThan(300)
    await deliver([paid, paid], { reorder: true, delayMillis: 5, send: kit().notify })
    await expectPaidOnce(kit(), checkout.trxId)
  })

  it.skipIf(!notifies)("a notification before the return, and the two racing: once", async () => {
    const first = await atGateway(kit())
    const fields = await returnFieldsOf(driver, first, "paid")
    await kit().notify(await notification(first, "paid"))
    if (fields !== undefined) {
      const answer = await kit().comeBack(first, { returnFields: fields })
      expect([answer.status, answer.location?.startsWith("https://shop.example/ok")]).toEqual([303, true])
    }
    await expectPaidOnce(kit(), first.trxId)

    const second = await atGateway(kit())
    const racing = await returnFieldsOf(driver, second, "paid")
    const paid = await notification(second, "paid")
    await Promise.all([
      kit().notify(paid),
      ...(racing === undefined ? [] : [kit().comeBack(second, { returnFields: racing })]),
      deliver([paid], { duplicate: 2, delayMillis: 1, send: kit().notify })
    ])
    await expectPaidOnce(kit(), second.trxId)
  })

  it.skipIf(!notifies || driver.misSign === undefined)("a mis-signed notification changes nothing; the gateway's own word decides", async () => {
    // Claiming paid while the gateway has taken no money: nothing moves, whatever sync says.
    const unpaid = await atGateway(kit())
    const forged: GatewayNotification = driver.misSign!(await notification(unpaid, "paid"))
    await deliver([forged], { duplicate: 2, send: kit().notify })
    await expectUntouched(kit(), unpaid.trxId)
    // Paid at the gateway, but the notification is mis-signed: only status sync may complete it.
    const paid = await atGateway(kit())
    await driver.customer(paid, "paid")
    await kit().notify(driver.misSign!(await notification(paid, "paid")))
    if (capabilities.statusSync) await expectPaidOnce(kit(), paid.trxId)
    else await expectUntouched(kit(), paid.trxId)
  })

  it.skipIf(!notifies)("a notification reaching another gateway record of the plugin is not heard for this payment", async () => {
    const checkout = await atGateway(kit())
    await driver.customer(checkout, "paid")
    const other = await kit().anotherGateway(`other${checkout.trxId.slice(-6).toLowerCase()}`)
    await kit().notify(await notification(checkout, "paid"), other)
    await expectUntouched(kit(), checkout.trxId)
    await kit().notify(await notification(checkout, "paid"))
    await expectPaidOnce(kit(), checkout.trxId)
  })

  it.skipIf(!notifies)("an amount or currency that differs is refused and flagged, never completed", async () => {
    const checkout = await atGateway(kit())
    await driver.customer(checkout, "paid")
    await kit().notify(await notification(checkout, "paid", { amount: "0.01" }))
    const payment = await kit().payment(checkout.trxId)
    expect(payment.status).toBe("pending")
    expect(await kit().credits(checkout.trxId)).toBe(0)
    expect((await kit().flags(checkout.trxId)).map((flag) => flag.reason)).toEqual(["amount_mismatch"])
    // The genuine word still completes it: the flag refused one report, not the payment.
    await kit().notify(await notification(checkout, "paid"))
    await expectPaidOnce(kit(), checkout.trxId)
  })

  it.skipIf(!capabilities.statusSync)("a dropped notification: the status sync asks the gateway and completes the payment", async () => {
    const checkout = await atGateway(kit())
    await driver.customer(checkout, "paid")
    await deliver(notifies ? [await notification(checkout, "paid")] : [], { drop: true, send: kit().notify })
    await expectUntouched(kit(), checkout.trxId)
    await kit().run(kit().clock.advance(61))
    await kit().run(sweepSyncs(50))
    await expectPaidOnce(kit(), checkout.trxId)
  })

  it("a hanging plugin call times out: the customer is offered another method, the gateway told to retry", async () => {
    const hanging = controls()
    hanging.hang.add("beginCheckout")
    try {
      const payment = await kit().initiate()
      const started = Date.now()
      const { answer } = await kit().choose(payment)
      expect(Date.now() - started).toBeLessThan(5_000)
      expect(answer.status).toBe(502)
      expect(answer.body).toContain("This payment method is unavailable right now. Choose another.")
      hanging.hang.delete("beginCheckout")
      const checkout = await atGateway(kit())
      hanging.hang.add("handleReturn")
      const fields = await returnFieldsOf(driver, checkout, "paid")
      if (fields !== undefined) expect((await kit().comeBack(checkout, { returnFields: fields })).status).toBe(502)
      hanging.hang.delete("handleReturn")
      if (notifies) {
        hanging.hang.add("handleNotification")
        const answer = await kit().notify(await notification(checkout, "paid"))
        expect(answer.status).toBe(503)
        expect(JSON.parse(answer.body)).toMatchObject({ error_code: "SERVICE_UNAVAILABLE" })
      }
      await expectUntouched(kit(), checkout.trxId)
    } finally {
      hanging.hang.clear()
    }
  })

  // Last: it moves the kit's business clock past a checkout's lifetime.
  it.skipIf(!notifies)("a decline heard after the link expired ends the payment as declined, with its failed event", async () => {
    const checkout = await atGateway(kit())
    await driver.customer(checkout, "declined")
    await kit().run(kit().clock.advance(3_601))
    await kit().notify(await notification(checkout, "declined"))
    const payment = await kit().payment(checkout.trxId)
    expect([payment.status, payment.failureReason]).toEqual(["failed", "declined"])
    expect(await kit().credits(checkout.trxId)).toBe(0)
    expect(await kit().events(checkout.trxId)).toEqual(["payment.failed"])
  })
}
