import * as Effect from "effect/Effect"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { plusSeconds } from "../shared/instant.js"
import { realNow } from "../shared/real-clock.js"
import { fingerprintsOf, REPLAY_WINDOW_SECONDS } from "./idempotency-policy.js"
import { IdempotencyStore } from "./idempotency-store.js"

/** What an action sent from a form under its key came to. */
export type FormKeyOutcome =
  /** Done now, or earlier under the same key with the same input: the id of what it made. */
  | { readonly _tag: "Done"; readonly id: string }
  /** The same action under this key is being done right now. */
  | { readonly _tag: "InFlight" }
  /** The key was used with other input. */
  | { readonly _tag: "Mismatch" }

/** A form's action: its namespace beside the API's keys, the operation it names, and a canonical text of its input. */
export interface FormAction {
  readonly namespace: string
  readonly operation: string
  readonly input: string
  readonly key: string
}

/**
 * An action sent from a dashboard form done at most once per the form's key, as the API's
 * Idempotency-Key makes a request: the form carries a key, so a double click, a reload or a second
 * tab sending it acts once. The key is claimed and the action done in one transaction (a refusal
 * frees the key), for 24 hours of real time, in a namespace of its own beside the API's keys.
 */
export const oncePerFormKey = <A, E, R>(scope: MerchantScope, action: FormAction, run: Effect.Effect<A, E, R>, idOf: (done: A) => string) =>
  Effect.gen(function*() {
    const at = yield* realNow
    const outcome = yield* (yield* IdempotencyStore).once(
      {
        scope: { merchantId: scope.merchant.id, environment: scope.environment, key: `${action.namespace}:${action.key}` },
        ...(yield* fingerprintsOf(action.operation, new TextEncoder().encode(action.input))),
        now: at,
        expiresAt: plusSeconds(at, REPLAY_WINDOW_SECONDS)
      },
      run,
      (done) => ({ status: 200, body: idOf(done) })
    )
    switch (outcome._tag) {
      case "Ran":
        return { _tag: "Done", id: idOf(outcome.value) } satisfies FormKeyOutcome as FormKeyOutcome
      case "Replay":
        return { _tag: "Done", id: outcome.response.body } satisfies FormKeyOutcome as FormKeyOutcome
      case "InFlight":
      case "Mismatch":
        return { _tag: outcome._tag } satisfies FormKeyOutcome as FormKeyOutcome
    }
  })
