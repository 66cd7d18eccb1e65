import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"
import type { WebhookEndpoint, WebhookEndpointStatus } from "./webhook-endpoint.js"

/** What an update may change; absent fields keep their value. */
export interface WebhookEndpointChanges {
  readonly url?: string
  readonly events?: ReadonlyArray<string>
  readonly description?: string | null
  readonly status?: WebhookEndpointStatus
  readonly at: Instant
}

/** A merchant's webhook endpoints: always read within one merchant and one environment. */
export class WebhookEndpointRepository extends Context.Tag("merchant-payments/WebhookEndpointRepository")<
  WebhookEndpointRepository,
  {
    /**
     * Adds the endpoint unless the merchant already keeps `limit` in its environment: false then,
     * and nothing is written.
     */
    readonly create: (endpoint: WebhookEndpoint, limit: number) => Effect.Effect<boolean, StorageError>
    /** The merchant's endpoints in the environment, oldest first (created_at, then id). */
    readonly list: (merchantId: MerchantId, environment: Environment) => Effect.Effect<ReadonlyArray<WebhookEndpoint>, StorageError>
    readonly find: (merchantId: MerchantId, environment: Environment, id: string) => Effect.Effect<Option.Option<WebhookEndpoint>, StorageError>
    /** Changes one of the merchant's endpoints in the environment: the endpoint after it, none when there is none by that id there. */
    readonly update: (
      merchantId: MerchantId,
      environment: Environment,
      id: string,
      changes: WebhookEndpointChanges
    ) => Effect.Effect<Option.Option<WebhookEndpoint>, StorageError>
    /**
     * Deletes one of the merchant's endpoints in the environment: false when there is none by that id
     * there. Events already queued for its URL still go out (they are the outbox's rows).
     */
    readonly remove: (merchantId: MerchantId, environment: Environment, id: string) => Effect.Effect<boolean, StorageError>
  }
>() {}
