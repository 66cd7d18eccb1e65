import { Cache, Context, Duration, Effect, Either, Exit, Layer, Option } from "effect"
import { SiteSettingsService } from "../settings/site-settings-service.js"
import { credentialMatchesEnvironment, hashApiKey } from "../signing/credentials.js"
import { constantTimeEqualHex } from "../signing/hmac.js"
import { checkTimestamp, verifyRequestSignature } from "../signing/request-signature.js"
import { SecretBox } from "../signing/secret-box.js"
import type { StorageError } from "../shared/storage-error.js"
import {
  AuthenticationFailed,
  MerchantBlocked,
  MerchantPendingApproval,
  MerchantSuspended,
  type AuthenticationFailure
} from "./authentication-errors.js"
import { CredentialRepository, type StoredCredentials } from "./credentials.js"
import { Environment } from "./environment.js"
import type { Merchant } from "./merchant.js"
import { MerchantRepository } from "./merchant-repository.js"
import { availability } from "./review.js"

/** What a request presents, read off its headers by the HTTP edge. */
export interface PresentedRequest {
  readonly environmentHeader: string | undefined
  /** Subscription endpoints default to production when the header is absent (spec 5.1). */
  readonly defaultEnvironment: Environment | undefined
  readonly merchantKey: string | undefined
  readonly apiKey: string | undefined
  readonly timestamp: string | undefined
  readonly signature: string | undefined
  readonly method: string
  readonly pathWithQuery: string
  readonly rawBody: Uint8Array
  /** Real wall-clock time: timestamps are checked against it even when business time is manual. */
  readonly nowSeconds: number
}

export interface AuthenticatedMerchant {
  readonly merchant: Merchant
  readonly environment: Environment
  readonly credentials: StoredCredentials
  readonly clientSecret: string
  readonly webhookSecret: string
}

export type AuthenticationError =
  | AuthenticationFailed
  | MerchantPendingApproval
  | MerchantSuspended
  | MerchantBlocked
  | StorageError

export class Authenticator extends Context.Tag("merchant-payments/Authenticator")<Authenticator, {
  readonly authenticate: (request: PresentedRequest) => Effect.Effect<AuthenticatedMerchant, AuthenticationError>
  /** Forget cached credentials and merchants; called after any change to them on this host. */
  readonly invalidate: Effect.Effect<void>
}>() {}

interface KeySet {
  readonly credentials: StoredCredentials
  readonly merchant: Merchant
  readonly clientSecret: string
  readonly webhookSecret: string
}

const fail = (reason: AuthenticationFailure) => Effect.fail(new AuthenticationFailed({ reason }))

const isEnvironment = (value: string): value is Environment => value === "sandbox" || value === "production"

/**
 * Credential lookups are cached for `cacheTtl` so a signed request costs no store round trip; a
 * change made on another host (rotation, suspension) takes effect here within that time.
 */
export const layer = (options: { readonly cacheTtl?: Duration.DurationInput } = {}) =>
  Layer.effect(
    Authenticator,
    Effect.gen(function*() {
      const credentialRepository = yield* CredentialRepository
      const merchantRepository = yield* MerchantRepository
      const box = yield* SecretBox
      const settings = yield* SiteSettingsService
      const ttl = Duration.decode(options.cacheTtl ?? "5 seconds")

      const openSecret = (sealed: string) =>
        // A secret that cannot be opened means the wrong MASTER_KEY: an operator fault, not the caller's.
        Either.match(box.open(sealed), { onLeft: (error) => Effect.die(error), onRight: Effect.succeed })

      const lookup = (key: string) =>
        Effect.gen(function*() {
          const [environment, merchantKey] = key.split("\u0000") as [Environment, string]
          const found = yield* credentialRepository.findByMerchantKey(environment, merchantKey)
          if (Option.isNone(found)) return Option.none<KeySet>()
          const merchant = yield* merchantRepository.findById(found.value.merchantId)
          if (Option.isNone(merchant)) return Option.none<KeySet>()
          return Option.some<KeySet>({
            credentials: found.value,
            merchant: merchant.value,
            clientSecret: yield* openSecret(found.value.sealedClientSecret),
            webhookSecret: yield* openSecret(found.value.sealedWebhookSecret)
          })
        })

      const cache = yield* Cache.makeWith({
        capacity: 10_000,
        lookup,
        // Failures are never kept: a passing store error must not lock a merchant out.
        timeToLive: (exit) => (Exit.isSuccess(exit) ? ttl : Duration.zero)
      })

      const authenticate = (request: PresentedRequest) =>
        Effect.gen(function*() {
          const environmentText = request.environmentHeader ?? request.defaultEnvironment
          if (environmentText === undefined) return yield* fail("missing_environment")
          if (!isEnvironment(environmentText)) return yield* fail("invalid_environment")
          const environment = environmentText
          const { merchantKey, apiKey } = request
          if (merchantKey === undefined || merchantKey === "" || apiKey === undefined || apiKey === "") {
            return yield* fail("missing_credentials")
          }
          // The key set must belong to the environment asked for: switching only the header is refused.
          if (!credentialMatchesEnvironment(merchantKey, environment) || !credentialMatchesEnvironment(apiKey, environment)) {
            return yield* fail("invalid_credentials")
          }
          const keySet = yield* cache.get(`${environment}\u0000${merchantKey}`)
          if (Option.isNone(keySet) || !constantTimeEqualHex(hashApiKey(apiKey), keySet.value.credentials.apiKeyHash)) {
            return yield* fail("invalid_credentials")
          }
          const { merchant, credentials, clientSecret, webhookSecret } = keySet.value

          const current = yield* settings.current
          if (current.signatureRequired) {
            const timestamp = checkTimestamp({
              header: request.timestamp,
              nowSeconds: request.nowSeconds,
              toleranceSeconds: current.signatureToleranceSeconds
            })
            if (timestamp._tag === "Missing") return yield* fail("missing_timestamp")
            if (timestamp._tag === "Malformed") return yield* fail("malformed_timestamp")
            if (timestamp._tag === "Stale") return yield* fail("stale_timestamp")
            if (request.signature === undefined || request.signature === "") return yield* fail("missing_signature")
            const parts = {
              timestamp: request.timestamp!,
              method: request.method,
              pathWithQuery: request.pathWithQuery,
              rawBody: request.rawBody
            }
            if (!verifyRequestSignature(clientSecret, parts, request.signature)) return yield* fail("invalid_signature")
          }

          // Review status is checked only once the caller proved who it is: strangers learn nothing.
          const verdict = availability(merchant.status, environment)
          switch (verdict._tag) {
            case "PendingApproval":
              return yield* new MerchantPendingApproval()
            case "Suspended":
              return yield* new MerchantSuspended()
            case "Blocked":
              return yield* new MerchantBlocked({ status: verdict.status })
            case "Available":
              return { merchant, environment, credentials, clientSecret, webhookSecret }
          }
        })

      return Authenticator.of({ authenticate, invalidate: cache.invalidateAll })
    })
  )
