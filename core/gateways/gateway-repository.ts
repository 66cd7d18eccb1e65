import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { GatewayId, MerchantId } from "../shared/ids.js"
import type { StorageError } from "../shared/storage-error.js"
import type { Gateway, GatewayCodeTaken, GatewayPatch, NewGateway } from "./gateway.js"

export class GatewayRepository extends Context.Tag("merchant-payments/GatewayRepository")<GatewayRepository, {
  readonly create: (gateway: NewGateway) => Effect.Effect<Gateway, GatewayCodeTaken | StorageError>
  readonly findById: (id: GatewayId) => Effect.Effect<Option.Option<Gateway>, StorageError>
  readonly update: (id: GatewayId, patch: GatewayPatch) => Effect.Effect<Option.Option<Gateway>, StorageError>
  /** In id order. */
  readonly list: Effect.Effect<ReadonlyArray<Gateway>, StorageError>
  readonly listByIds: (ids: ReadonlyArray<GatewayId>) => Effect.Effect<ReadonlyArray<Gateway>, StorageError>
  /** The gateways a merchant picked in its API config; an empty list means no restriction. */
  readonly replaceMerchantSelection: (
    merchantId: MerchantId,
    gatewayIds: ReadonlyArray<GatewayId>
  ) => Effect.Effect<void, StorageError>
  readonly merchantSelection: (merchantId: MerchantId) => Effect.Effect<ReadonlyArray<GatewayId>, StorageError>
}>() {}
