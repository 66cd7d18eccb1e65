import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { WebhookTargetCheck } from "../../core/webhooks/target-check.js"
import { WebhookTargets } from "../../core/webhooks/target-rule.js"
import { pinTarget, type ResolveAll } from "./pinned-lookup.js"

/**
 * The delivery guard (pinTarget) asked as if private targets were forbidden: a refusal that names an
 * address is a private target, which passes only where the operator allows private targets (the
 * kit's one WebhookTargets setting).
 */
export const targetCheckLayer = (options: { readonly resolveAll?: ResolveAll } = {}) =>
  Layer.effect(WebhookTargetCheck, Effect.map(WebhookTargets, (targets) => WebhookTargetCheck.of({
    check: (url) =>
      pinTarget(url, { allowPrivateTargets: false, ...(options.resolveAll === undefined ? {} : { resolveAll: options.resolveAll }) }).pipe(
        Effect.as({ privateTarget: false }),
        Effect.catchTags({
          TargetRefused: (refused) =>
            Effect.succeed(refused.address !== undefined && targets.allowPrivateTargets
              ? { privateTarget: true }
              : { refusal: refused.reason, privateTarget: refused.address !== undefined }),
          LookupFailed: () => Effect.succeed({ refusal: "its host name does not resolve", privateTarget: false })
        })
      )
  })))
