import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { GatewayRepository } from "../../core/gateways/gateway-repository.js"
import { now, plusSeconds } from "../../core/shared/instant.js"
import { SavedMethodRepository } from "../../core/subscriptions/saved-method.js"
import { SubscriptionRepository } from "../../core/subscriptions/subscription-repository.js"
import { makeMerchant, unique, units } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

/** Saved methods, and a subscription's renewal-charge fields, read back as written. */
export const savedMethodCases = (it: StorageIt) => {
  it.effect("saved method: round trip, and a subscription's method, charge time, tries and claim written by a transition", () =>
    Effect.gen(function*() {
      const merchant = yield* makeMerchant()
      const gateway = yield* (yield* GatewayRepository).create({ plugin: "sandbox", name: "Cards", currency: "USD", method: unique("card"), type: "automatic", active: true, config: {} })
      const at = yield* now
      const methods = yield* SavedMethodRepository
      const method = {
        id: unique("pm"), merchantId: merchant.id, environment: "sandbox" as const, customerEmail: "saver@example.com", gatewayId: gateway.id,
        sealedReference: "v1.sealed.text", brand: "visa", last4: "0341", expMonth: 12, expYear: 2034, createdAt: at
      }
      expect(yield* methods.insert(method)).toEqual(method)
      expect(yield* methods.findById(method.id)).toEqual(Option.some(method))
      expect(yield* methods.findById("missing")).toEqual(Option.none())

      const repo = yield* SubscriptionRepository
      const subscription = yield* repo.insert({
        id: unique("sub"), merchantId: merchant.id, environment: "sandbox", externalReference: unique("ext"), status: "active",
        billingCycle: "monthly", amount: units(25), currency: "USD", customerEmail: "saver@example.com", customerName: null, description: null,
        successRedirect: "https://shop.example/ok", cancelRedirect: "https://shop.example/no", ipnUrl: "https://shop.example/ipn",
        allowPaymentMethods: [], metadata: {}, startsAt: null, currentPeriodStart: at, currentPeriodEnd: plusSeconds(at, 60), nextBillingAt: null,
        cancelAtPeriodEnd: false, cancelledAt: null, testClockId: null, savedMethodId: null, chargeAt: null, chargeAttempts: 0, chargeClaim: null, wakeAt: null
      })
      expect(subscription).toMatchObject({ savedMethodId: null, chargeAt: null, chargeAttempts: 0, chargeClaim: null })
      const chargeAt = plusSeconds(at, 3_600)
      const moved = Option.getOrThrow(yield* repo.transition(subscription.id, ["active"], {
        savedMethodId: method.id, chargeAt, chargeAttempts: 2, chargeClaim: "renewal-key-3", wakeAt: chargeAt
      }, at))
      expect(moved).toMatchObject({ savedMethodId: method.id, chargeAt, chargeAttempts: 2, chargeClaim: "renewal-key-3", wakeAt: chargeAt })
      const cleared = Option.getOrThrow(yield* repo.transition(subscription.id, ["active"], { chargeAt: null, chargeClaim: null, chargeAttempts: 0 }, at))
      expect(cleared).toMatchObject({ savedMethodId: method.id, chargeAt: null, chargeAttempts: 0, chargeClaim: null })
    }))
}
