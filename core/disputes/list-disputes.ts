import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { keysetCursor, keysetPage, type KeysetRequest } from "../shared/keyset-page.js"
import { type Dispute, DisputeNotFound, type DisputeStatus } from "./dispute.js"
import { type DisputeQuery, DisputeRepository } from "./dispute-repository.js"

export const DEFAULT_DISPUTE_LIMIT = 20
export const MAX_DISPUTE_LIMIT = 100

export interface DisputePage {
  readonly disputes: ReadonlyArray<Dispute>
  /** Where the next page starts; null on the last page. */
  readonly nextCursor: string | null
}

/** Dispute ids are `dp_` and 32 hex digits. */
const disputeCursor = keysetCursor("dp_[0-9a-f]{32}", String)

type DisputeListRequest = Omit<KeysetRequest, "since" | "until"> & { readonly status?: DisputeStatus }

const page = (request: DisputeListRequest, filters: Omit<DisputeQuery, "limit" | "before">) =>
  Effect.gen(function*() {
    const repository = yield* DisputeRepository
    const { nextCursor, rows } = yield* keysetPage(disputeCursor, request, ({ before, limit }) =>
      Effect.map(
        repository.list({
          ...filters,
          ...(request.status !== undefined ? { status: request.status } : {}),
          limit,
          ...(before !== undefined ? { before } : {})
        }),
        (disputes) => disputes.map((dispute) => ({ createdAt: dispute.createdAt, id: dispute.id, dispute }))
      ))
    const result: DisputePage = { disputes: rows.map((row) => row.dispute), nextCursor }
    return result
  })

/** The caller's disputes in its environment, newest first, of one status when asked: GET /api/v1/disputes. */
export const listDisputes = (caller: MerchantScope, request: DisputeListRequest) =>
  page(request, { merchantId: caller.merchant.id, environment: caller.environment })

/** Every merchant's disputes, newest first, of one status when asked: the operator's list. */
export const listAllDisputes = (request: DisputeListRequest) => page(request, {})

/** One of the caller's disputes; another merchant's or environment's id is not found. */
export const getDispute = (caller: MerchantScope, id: string) =>
  Effect.flatMap(DisputeRepository, (repository) =>
    Effect.flatMap(repository.findScoped(caller.merchant.id, caller.environment, id), Option.match({
      onNone: () => Effect.fail(new DisputeNotFound()),
      onSome: Effect.succeed
    })))

/**
 * The disputes of one of the caller's payments, newest first (a payment has a few at most: each
 * holds part of what is left of it). Another merchant's or environment's payment has none here.
 */
export const paymentDisputes = (caller: MerchantScope, trxId: string) =>
  Effect.flatMap(DisputeRepository, (repository) =>
    repository.list({ merchantId: caller.merchant.id, environment: caller.environment, paymentTrxId: trxId, limit: MAX_DISPUTE_LIMIT }))
