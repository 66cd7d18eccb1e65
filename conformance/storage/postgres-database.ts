import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createThrowawayDatabase } from "../support/throwaway-postgres.js"

/**
 * A throw-away database beside the one `baseUrl` names, created for one suite and dropped after it,
 * so suites running in parallel never see each other's rows or migrations.
 */
export const freshDatabase = <A, E, R>(baseUrl: string, use: (url: string) => Layer.Layer<A, E, R>) =>
  Layer.unwrapScoped(
    Effect.acquireRelease(
      Effect.promise(() => createThrowawayDatabase(baseUrl)),
      (database) => Effect.promise(() => database.drop()).pipe(Effect.ignore)
    ).pipe(Effect.map((database) => use(database.url)))
  )
