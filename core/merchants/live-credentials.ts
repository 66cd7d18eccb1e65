import * as Effect from "effect/Effect"
import { realNow } from "../shared/real-clock.js"
import { CredentialRepository } from "./credentials.js"
import type { MerchantScope } from "./merchant-scope.js"

/**
 * The scope's credential sets that work now: the current one first, then replaced ones still in
 * their overlap (wall-clock time, like every security window). Sealed secrets stay sealed: a page
 * shows keys and overlap ends, never a secret after it was issued.
 */
export const liveCredentials = (scope: MerchantScope) =>
  Effect.flatMap(realNow, (at) =>
    Effect.flatMap(CredentialRepository, (credentials) => credentials.liveSets(scope.merchant.id, scope.environment, at)))
