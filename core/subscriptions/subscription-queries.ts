import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import type { PageRequest } from "../shared/page.js"
import { type Invoice, SubscriptionNotFound } from "./subscription.js"
import { SubscriptionRepository } from "./subscription-repository.js"

/** How many invoices retrieve returns (spec 8). */
export const RETRIEVED_INVOICES = 20

/** Only the caller's own subscription in its own environment: anything else does not exist for it. */
export const scopedSubscription = (caller: MerchantScope, id: string, lock: boolean) =>
  Effect.gen(function*() {
    const repo = yield* SubscriptionRepository
    const found = lock ? yield* repo.findByIdForUpdate(id) : yield* repo.findScoped(caller.merchant.id, caller.environment, id)
    if (Option.isNone(found) || found.value.merchantId !== caller.merchant.id || found.value.environment !== caller.environment) {
      return yield* new SubscriptionNotFound({ subscriptionId: id })
    }
    return found.value
  })

/** Spec 4.7: the subscription with its newest invoices. */
export const retrieveSubscription = (caller: MerchantScope, id: string) =>
  Effect.gen(function*() {
    const subscription = yield* scopedSubscription(caller, id, false)
    const invoices = yield* (yield* SubscriptionRepository).latestInvoices(id, RETRIEVED_INVOICES)
    return { subscription, invoices }
  })

/** Spec 4.6: newest first, each with its latest invoice (one query for the page's invoices). */
export const listSubscriptions = (caller: MerchantScope, request: PageRequest) =>
  Effect.gen(function*() {
    const repo = yield* SubscriptionRepository
    const page = yield* repo.list(caller.merchant.id, caller.environment, request)
    const latest = new Map<string, Invoice>()
    for (const invoice of yield* repo.latestInvoiceOf(page.items.map((s) => s.id))) latest.set(invoice.subscriptionId, invoice)
    return { ...request, total: page.total, items: page.items.map((subscription) => ({ subscription, latest: latest.get(subscription.id) })) }
  })
