import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import { diagnoseSignature, MAX_DIAGNOSED_BODY_BYTES } from "../signing/signature-diagnosis.js"
import { parseSha256Signature } from "../signing/signature-header.js"
import type { SecretBox } from "../signing/secret-box.js"
import { AuthenticationFailed, type AuthenticationFailure } from "./authentication-errors.js"
import type { CredentialRepository } from "./credentials.js"

/** The signed parts of a presented request, which the diagnosis reads (the authenticator's `PresentedRequest` extends it). */
export interface RefusedRequest {
  readonly timestamp: string | undefined
  readonly signature: string | undefined
  readonly method: string
  /** The path and query the client called. */
  readonly pathWithQuery: string
  /** The same under the kit's base path, without it (spec paths are relative to `{base_url}`); equal when none. */
  readonly relativePathWithQuery: string
  readonly rawBody: Uint8Array
  /** Real wall-clock time: timestamps are checked against it even when business time is manual. */
  readonly nowSeconds: number
}

/** The key set the merchant key named. */
export interface NamedCaller {
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly clientSecret: string
}

/** The refusals a signature diagnosis explains: the timestamp's and the signature's. */
const SIGNATURE_FAILURES: ReadonlySet<AuthenticationFailure> = new Set<AuthenticationFailure>([
  "missing_timestamp",
  "malformed_timestamp",
  "stale_timestamp",
  "missing_signature",
  "invalid_signature"
])

/** The paths with query a signature may be made over: the full one, and the relative one when mounted. */
export const signedTargets = (request: Pick<RefusedRequest, "pathWithQuery" | "relativePathWithQuery">): ReadonlyArray<string> =>
  request.relativePathWithQuery === request.pathWithQuery
    ? [request.pathWithQuery]
    : [request.pathWithQuery, request.relativePathWithQuery]

/**
 * The refusal of a caller whose merchant key is real, with who it is and, for a timestamp or
 * signature, what the server signed and the likely mistake. Verification has already failed: this
 * only explains it, for logs and request history; the HTTP answer never shows it.
 */
export const explainedRefusal = (services: {
  readonly credentials: Context.Tag.Service<typeof CredentialRepository>
  readonly box: Context.Tag.Service<typeof SecretBox>
  readonly publicBasePath: string | undefined
}) => {
  /** The same merchant's client secret in the other environment: tried by the diagnosis, never shown. */
  const otherEnvironmentSecret = (caller: NamedCaller) =>
    services.credentials.findForMerchant(caller.merchantId, caller.environment === "sandbox" ? "production" : "sandbox").pipe(
      Effect.map(Option.flatMap((other) => Option.getRight(services.box.open(other.sealedClientSecret)))),
      Effect.map(Option.getOrUndefined),
      // A diagnosis is a courtesy: a store that cannot answer leaves the refusal as it was.
      Effect.orElseSucceed(() => undefined)
    )

  return (
    request: RefusedRequest,
    caller: NamedCaller,
    toleranceSeconds: number,
    reason: AuthenticationFailure
  ): Effect.Effect<AuthenticationFailed> => {
    const knownCaller = { merchantId: String(caller.merchantId), environment: caller.environment }
    if (!SIGNATURE_FAILURES.has(reason)) return Effect.succeed(new AuthenticationFailed({ reason, knownCaller }))
    // Only a well-formed signature over a body the diagnosis tries is worth a store read.
    const tryOther = reason === "invalid_signature" && parseSha256Signature(request.signature) !== undefined &&
      request.rawBody.length <= MAX_DIAGNOSED_BODY_BYTES
    return Effect.map(tryOther ? otherEnvironmentSecret(caller) : Effect.succeed(undefined), (other) =>
      new AuthenticationFailed({
        reason,
        knownCaller,
        signatureCheck: diagnoseSignature({
          timestamp: request.timestamp,
          signature: request.signature,
          method: request.method,
          accepted: signedTargets(request),
          rawBody: request.rawBody,
          nowSeconds: request.nowSeconds,
          toleranceSeconds,
          environment: caller.environment,
          clientSecret: caller.clientSecret,
          otherEnvironmentSecret: other,
          publicBasePath: services.publicBasePath
        })
      }))
  }
}
