import type { MerchantScope } from "./merchant-scope.js"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { SiteSettings } from "../settings/site-settings.js"
import { SiteSettingsService } from "../settings/site-settings-service.js"
import { ExpiringMap } from "../shared/expiring-map.js"
import { fromSeconds, toSeconds } from "../shared/instant.js"
import { credentialMatchesEnvironment } from "../signing/credential-keys.js"
import { constantTimeEqualBytes, decodeHex, sha256 } from "../signing/hmac.js"
import { checkTimestamp, verifyRequestSignatureOverTargets } from "../signing/request-signature.js"
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
import { explainedRefusal, type RefusedRequest, signedTargets } from "./explained-refusal.js"
import { Environment } from "../shared/environment.js"
import type { Merchant } from "./merchant.js"
import { MerchantRepository } from "./merchant-repository.js"
import { availability } from "./review.js"

/** What a request presents, read off its headers by the HTTP edge; the signed parts are what a refusal's diagnosis reads too. */
export interface PresentedRequest extends RefusedRequest {
  readonly environmentHeader: string | undefined
  /** Subscription endpoints default to production when the header is absent (spec 5.1). */
  readonly defaultEnvironment: Environment | undefined
  readonly merchantKey: string | undefined
  readonly apiKey: string | undefined
}

export interface AuthenticatedMerchant extends MerchantScope {
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
  readonly apiKeyHash: Uint8Array
  readonly merchant: Merchant
  readonly clientSecret: string
  readonly webhookSecret: string
  /** Unix seconds after which a replaced set in its overlap stops working; undefined for the current set. */
  readonly retiresAtSeconds: number | undefined
}

const failure = (reason: AuthenticationFailure) => new AuthenticationFailed({ reason })

const isEnvironment = (value: string): value is Environment => value === "sandbox" || value === "production"

/** The checks that need no store, in the contract's order; the environment, or why the request is refused. */
const checkPresented = (request: PresentedRequest): Environment | AuthenticationFailed => {
  const environment = request.environmentHeader ?? request.defaultEnvironment
  if (environment === undefined) return failure("missing_environment")
  if (!isEnvironment(environment)) return failure("invalid_environment")
  const { merchantKey, apiKey } = request
  if (merchantKey === undefined || merchantKey === "" || apiKey === undefined || apiKey === "") {
    return failure("missing_credentials")
  }
  // The key set must belong to the environment asked for: switching only the header is refused.
  if (!credentialMatchesEnvironment(merchantKey, environment) || !credentialMatchesEnvironment(apiKey, environment)) {
    return failure("invalid_credentials")
  }
  return environment
}

/** Everything after the lookup: API key, timestamp, signature, then review status. */
const checkKeySet = (
  request: PresentedRequest,
  environment: Environment,
  keySet: KeySet | undefined,
  settings: SiteSettings
): AuthenticatedMerchant | Exclude<AuthenticationError, StorageError> => {
  if (keySet === undefined || !constantTimeEqualBytes(sha256(request.apiKey!), keySet.apiKeyHash)) {
    return failure("invalid_credentials")
  }
  // A cached replaced set is held to its overlap here, not only when it was looked up.
  if (keySet.retiresAtSeconds !== undefined && request.nowSeconds >= keySet.retiresAtSeconds) {
    return failure("invalid_credentials")
  }
  if (settings.signatureRequired) {
    const timestamp = checkTimestamp({
      header: request.timestamp,
      nowSeconds: request.nowSeconds,
      toleranceSeconds: settings.signatureToleranceSeconds
    })
    if (timestamp._tag === "Missing") return failure("missing_timestamp")
    if (timestamp._tag === "Malformed") return failure("malformed_timestamp")
    if (timestamp._tag === "Stale") return failure("stale_timestamp")
    if (request.signature === undefined || request.signature === "") return failure("missing_signature")
    const parts = { timestamp: request.timestamp!, method: request.method, rawBody: request.rawBody }
    if (!verifyRequestSignatureOverTargets(keySet.clientSecret, parts, signedTargets(request), request.signature)) {
      return failure("invalid_signature")
    }
  }
  // Review status is checked only once the caller proved who it is: strangers learn nothing.
  const verdict = availability(keySet.merchant.status, environment)
  switch (verdict._tag) {
    case "PendingApproval":
      return new MerchantPendingApproval()
    case "Suspended":
      return new MerchantSuspended()
    case "Blocked":
      return new MerchantBlocked({ status: verdict.status })
    case "Available":
      return {
        merchant: keySet.merchant,
        environment,
        credentials: keySet.credentials,
        clientSecret: keySet.clientSecret,
        webhookSecret: keySet.webhookSecret
      }
  }
}

const settle = (result: AuthenticatedMerchant | Exclude<AuthenticationError, StorageError>) =>
  result instanceof AuthenticationFailed || result instanceof MerchantPendingApproval ||
    result instanceof MerchantSuspended || result instanceof MerchantBlocked
    ? Effect.fail(result)
    : Effect.succeed(result)

/**
 * Credential lookups are cached for `cacheTtlSeconds` of real time, so a signed request costs no
 * store round trip and a cache hit no effectful work; a change made on another host (rotation,
 * suspension) takes effect here within that time, and on this host at once through `invalidate`.
 */
export const layer = (options: {
  readonly cacheTtlSeconds?: number
  /** The path of the public base URL, if any: a proxy may strip it, and a client that signed it is told so. */
  readonly publicBasePath?: string
} = {}) =>
  Layer.effect(
    Authenticator,
    Effect.gen(function*() {
      const credentialRepository = yield* CredentialRepository
      const merchantRepository = yield* MerchantRepository
      const box = yield* SecretBox
      const settingsService = yield* SiteSettingsService
      const cache = new ExpiringMap<string, KeySet>(options.cacheTtlSeconds ?? 5, 10_000)
      const explained = explainedRefusal({ credentials: credentialRepository, box, publicBasePath: options.publicBasePath })

      const openSecret = (sealed: string) =>
        // A secret that cannot be opened means the wrong MASTER_KEY: an operator fault, not the caller's.
        Either.match(box.open(sealed), { onLeft: (error) => Effect.die(error), onRight: Effect.succeed })

      const lookup = (environment: Environment, merchantKey: string, nowSeconds: number) =>
        Effect.gen(function*() {
          const found = yield* credentialRepository.findByMerchantKey(environment, merchantKey, fromSeconds(nowSeconds))
          if (Option.isNone(found)) return undefined
          const merchant = yield* merchantRepository.findById(found.value.merchantId)
          if (Option.isNone(merchant)) return undefined
          const keySet: KeySet = {
            credentials: found.value,
            // A stored hash that is not hex matches no key: the credentials are refused, not trusted.
            apiKeyHash: decodeHex(found.value.apiKeyHash) ?? new Uint8Array(0),
            merchant: merchant.value,
            clientSecret: yield* openSecret(found.value.sealedClientSecret),
            webhookSecret: yield* openSecret(found.value.sealedWebhookSecret),
            retiresAtSeconds: found.value.retiresAt === null ? undefined : toSeconds(found.value.retiresAt)
          }
          return keySet
        })

      const authenticate = (request: PresentedRequest): Effect.Effect<AuthenticatedMerchant, AuthenticationError> => {
        const environment = checkPresented(request)
        if (environment instanceof AuthenticationFailed) return Effect.fail(environment)
        const cacheKey = `${environment}|${request.merchantKey}`
        // Only found key sets are kept: an unknown key is looked up again (it may have just been
        // issued), and a store error is never cached, so a passing outage locks no merchant out.
        const keySet = cache.get(cacheKey, request.nowSeconds)
        const found = keySet !== undefined
          ? Effect.succeed(keySet)
          : Effect.tap(lookup(environment, request.merchantKey!, request.nowSeconds), (value) => {
            if (value !== undefined) cache.set(cacheKey, value, request.nowSeconds)
          })
        return Effect.flatMap(found, (value) =>
          Effect.flatMap(settingsService.current, (settings) => {
            const result = checkKeySet(request, environment, value, settings)
            return result instanceof AuthenticationFailed && value !== undefined
              ? Effect.flatMap(explained(request, {
                merchantId: value.credentials.merchantId,
                environment,
                clientSecret: value.clientSecret
              }, settings.signatureToleranceSeconds, result.reason), Effect.fail)
              : settle(result)
          }))
      }

      return Authenticator.of({ authenticate, invalidate: Effect.sync(() => cache.clear()) })
    })
  )
