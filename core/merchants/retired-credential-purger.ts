import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { realNow } from "../shared/real-clock.js"
import { CredentialRepository } from "./credentials.js"

export class RetiredCredentialPurger extends Context.Tag("merchant-payments/RetiredCredentialPurger")<RetiredCredentialPurger, {}>() {}

/**
 * A credential set replaced with an overlap is already refused once its overlap ends; this destroys
 * it then, so a replaced secret is kept (sealed) no longer than it may be used. On the wall clock,
 * like the overlap itself.
 */
export const layer = (options: { readonly interval?: Duration.DurationInput } = {}) =>
  Layer.scoped(
    RetiredCredentialPurger,
    Effect.gen(function*() {
      const repository = yield* CredentialRepository
      const pass = Effect.flatMap(realNow, repository.destroyRetired).pipe(
        Effect.tap((destroyed) => (destroyed > 0 ? Effect.logInfo(`destroyed ${destroyed} credential sets whose overlap ended`) : Effect.void)),
        Effect.catchAllCause((cause) => Effect.logWarning("destroying replaced credential sets failed; retrying later", cause))
      )
      yield* Effect.forkScoped(Effect.repeat(pass, Schedule.spaced(options.interval ?? "1 minute")))
      return RetiredCredentialPurger.of({})
    })
  )
