import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { GatewayRepository } from "../../core/gateways/gateway-repository.js"
import { now, plusSeconds } from "../../core/shared/instant.js"
import { MethodSetupRepository } from "../../core/subscriptions/method-setup-repository.js"
import { SavedMethodRepository } from "../../core/subscriptions/saved-method.js"
import { SubscriptionRepository } from "../../core/subscriptions/subscription-repository.js"
import { makeMerchant, unique, units } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

/** Setup-only sessions: read back as written, completed once, never after their time. */
export const methodSetupCases = (it: StorageIt) => {
  it.effect("method setup: round trip, a reference, a single completion, and none once expired", () =>
    Effect.gen(function*() {
      const merchant = yield* makeMerchant()
      const gateway = yield* (yield* GatewayRepository).create({ plugin: "sandbox", name: "Cards", currency: "USD", method: unique("card"), type: "automatic", active: true, config: {} })
      const at = yield* now
      const subscription = yield* (yield* SubscriptionRepository).insert({
        id: unique("sub"), merchantId: merchant.id, environment: "sandbox", externalReference: unique("ext"), status: "active",
        billingCycle: "monthly", amount: units(25), currency: "USD", customerEmail: "setup@example.com", customerName: null, description: null,
        successRedirect: "https://shop.example/ok", cancelRedirect: "https://shop.example/no", ipnUrl: "https://shop.example/ipn",
        allowPaymentMethods: [], metadata: {}, startsAt: null, currentPeriodStart: at, currentPeriodEnd: plusSeconds(at, 60), nextBillingAt: null,
        cancelAtPeriodEnd: false, cancelledAt: null, testClockId: null, savedMethodId: null, chargeAt: null, chargeAttempts: 0, chargeClaim: null, wakeAt: null
      })
      const method = yield* (yield* SavedMethodRepository).insert({
        id: unique("pm"), merchantId: merchant.id, environment: "sandbox", customerEmail: "setup@example.com", gatewayId: gateway.id,
        sealedReference: "v1.sealed.text", brand: "visa", last4: "4242", expMonth: 12, expYear: 2034, createdAt: at
      })
      const setups = yield* MethodSetupRepository
      const open = {
        id: unique("setup"), subscriptionId: subscription.id, merchantId: merchant.id, environment: "sandbox" as const, gatewayId: gateway.id,
        gatewayReference: null, savedMethodId: null, expiresAt: plusSeconds(at, 3_600), completedAt: null, createdAt: at
      }
      expect(yield* setups.insert(open)).toEqual(open)
      yield* setups.setReference(open.id, "cs_test_1")
      expect(yield* setups.findById(open.id)).toEqual(Option.some({ ...open, gatewayReference: "cs_test_1" }))
      expect(yield* setups.findById("missing")).toEqual(Option.none())

      const done = yield* setups.complete(open.id, method.id, plusSeconds(at, 10))
      expect(done).toEqual(Option.some({ ...open, gatewayReference: "cs_test_1", savedMethodId: method.id, completedAt: plusSeconds(at, 10) }))
      expect(yield* setups.complete(open.id, method.id, plusSeconds(at, 20))).toEqual(Option.none())

      const late = { ...open, id: unique("setup") }
      yield* setups.insert(late)
      expect(yield* setups.complete(late.id, method.id, plusSeconds(at, 3_600))).toEqual(Option.none())
      expect(yield* setups.findById(late.id)).toEqual(Option.some(late))
    }))
}
