import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { keysetCursor, keysetPage, type KeysetRequest } from "../shared/keyset-page.js"
import { type Payout, PayoutNotFound, type PayoutStatus } from "./payout.js"
import { PayoutRepository, type PayoutQuery } from "./payout-repository.js"

export const DEFAULT_PAYOUT_LIMIT = 20
export const MAX_PAYOUT_LIMIT = 100

export interface PayoutPage {
  readonly payouts: ReadonlyArray<Payout>
  /** Where the next page starts; null on the last page. */
  readonly nextCursor: string | null
}

/** Payout ids are `po_` and 32 hex digits. */
const payoutCursor = keysetCursor("po_[0-9a-f]{32}", String)

const page = (request: KeysetRequest, filters: Omit<PayoutQuery, "limit" | "before" | "since" | "until">) =>
  Effect.gen(function*() {
    const repository = yield* PayoutRepository
    const { nextCursor, rows } = yield* keysetPage(payoutCursor, request, ({ before, limit }) =>
      Effect.map(
        repository.list({
          ...filters,
          limit,
          ...(request.since !== undefined ? { since: request.since } : {}),
          ...(request.until !== undefined ? { until: request.until } : {}),
          ...(before !== undefined ? { before } : {})
        }),
        (payouts) => payouts.map((payout) => ({ createdAt: payout.createdAt, id: payout.id, payout }))
      ))
    const result: PayoutPage = { payouts: rows.map((row) => row.payout), nextCursor }
    return result
  })

/** The caller's payouts in its environment, newest first: GET /api/v1/payouts. */
export const listPayouts = (caller: MerchantScope, request: KeysetRequest) =>
  page(request, { merchantId: caller.merchant.id, environment: caller.environment })

/** Every merchant's payouts, newest first, of one status when asked: the operator's queue. */
export const listAllPayouts = (request: KeysetRequest & { readonly status?: PayoutStatus }) =>
  page(request, request.status !== undefined ? { status: request.status } : {})

/** One of the caller's payouts; another merchant's or environment's id is not found. */
export const getPayout = (caller: MerchantScope, id: string) =>
  Effect.flatMap(PayoutRepository, (repository) =>
    Effect.flatMap(repository.findScoped(caller.merchant.id, caller.environment, id), Option.match({
      onNone: () => Effect.fail(new PayoutNotFound()),
      onSome: Effect.succeed
    })))
