import { randomUUID } from "node:crypto"
import * as Effect from "effect/Effect"
import type { Environment } from "../../core/shared/environment.js"
import type { Merchant } from "../../core/merchants/merchant.js"
import { MerchantRepository } from "../../core/merchants/merchant-repository.js"
import { Amount, ATOMS_PER_UNIT } from "../../core/money/amount.js"
import type { NewPayment } from "../../core/payments/payment.js"
import type { MerchantId } from "../../core/shared/ids.js"
import { type Instant, plusSeconds } from "../../core/shared/instant.js"
import type { NewWallet } from "../../core/wallets/wallet.js"
import { WalletRepository } from "../../core/wallets/wallet-repository.js"
import { PaymentRepository } from "../../core/payments/payment-repository.js"
import { type NewSubscription, NO_PLAN_CHANGES } from "../../core/subscriptions/subscription.js"
import { wakeAtOf } from "../../core/subscriptions/wake.js"

/** Suites share one store per adapter run; every case makes its own rows with unique names. */
export const unique = (prefix: string): string => `${prefix}_${randomUUID().replaceAll("-", "").slice(0, 16)}`

export const units = (whole: number | bigint): Amount => Amount(BigInt(whole) * ATOMS_PER_UNIT)

export const makeMerchant = (overrides: Partial<Pick<Merchant, "status" | "name">> = {}) =>
  Effect.flatMap(MerchantRepository, (repo) =>
    repo.create({
      name: overrides.name ?? unique("merchant"),
      status: overrides.status ?? "approved",
      feePercent: Amount(250_000_000n),
      feeFixed: Amount(30_000_000n)
    }))

export const makeWallet = (merchantId: MerchantId, overrides: Partial<Omit<NewWallet, "merchantId">> = {}) =>
  Effect.flatMap(WalletRepository, (repo) =>
    repo.create({
      merchantId,
      currency: overrides.currency ?? "USD",
      environment: overrides.environment ?? ("sandbox" satisfies Environment)
    }))

export const newPayment = (
  merchantId: MerchantId,
  overrides: Partial<NewPayment> & { readonly expiresAt: Instant }
): NewPayment => ({
  trxId: unique("SANDBOX"),
  merchantId,
  environment: "sandbox",
  refTrx: unique("order"),
  amount: units(100),
  currency: "USD",
  description: null,
  customerName: null,
  customerEmail: null,
  ipnUrl: "https://merchant.example/ipn",
  successRedirect: "https://merchant.example/ok",
  cancelRedirect: "https://merchant.example/cancel",
  allowPaymentMethods: [],
  gatewayIds: [],
  invoiceId: null,
  ...overrides
})

/** A payment opened at `createdAt` and paid in full (no fee) at `paidAt`. */
export const paidPayment = (
  merchantId: MerchantId,
  at: { readonly createdAt: Instant; readonly paidAt: Instant },
  overrides: { readonly amount?: Amount; readonly currency?: string; readonly environment?: Environment } = {}
) =>
  Effect.gen(function*() {
    const payments = yield* PaymentRepository
    const payment = yield* payments.insert(newPayment(merchantId, { expiresAt: plusSeconds(at.createdAt, 86_400), ...overrides }), at.createdAt)
    yield* payments.complete(payment.trxId, { outcome: "paid", fee: Amount(0n), net: payment.amount, gatewayId: null }, at.paidAt)
    return payment
  })

/** A subscription row as a writer inserts it: a pending monthly 25 USD plan of `merchantId`, with its wake time computed as every writer computes it. */
export const newSubscription = (merchantId: MerchantId, overrides: Partial<NewSubscription> = {}): NewSubscription => {
  const draft: Omit<NewSubscription, "wakeAt"> = {
  id: unique("sub"),
  merchantId,
  environment: "sandbox",
  externalReference: unique("ext"),
  status: "pending",
  billingCycle: "monthly",
  amount: units(25),
  currency: "USD",
  customerEmail: "payer@example.test",
  customerName: null,
  description: null,
  successRedirect: "https://shop.example.test/ok",
  cancelRedirect: "https://shop.example.test/cancel",
  ipnUrl: "https://shop.example.test/ipn",
  allowPaymentMethods: [],
  metadata: {},
  startsAt: null,
  currentPeriodStart: null,
  currentPeriodEnd: null,
  nextBillingAt: null,
  cancelAtPeriodEnd: false,
  cancelledAt: null,
  testClockId: null,
  locale: null,
  ...NO_PLAN_CHANGES,
  dunning: null,
  savedMethodId: null,
  chargeAt: null,
  chargeAttempts: 0,
  chargeClaim: null,
  ...overrides
  }
  // The scheduler's queue is the wake time, computed as every writer computes it.
  return { ...draft, wakeAt: overrides.wakeAt !== undefined ? overrides.wakeAt : wakeAtOf(draft) }
}
