import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { StorageError } from "../shared/storage-error.js"

/** Administrator settings as JSON text by key; typed readers with defaults live beside their features. */
export class SettingsRepository extends Context.Tag("merchant-payments/SettingsRepository")<SettingsRepository, {
  readonly get: (key: string) => Effect.Effect<Option.Option<string>, StorageError>
  readonly getAll: Effect.Effect<ReadonlyMap<string, string>, StorageError>
  readonly set: (key: string, valueJson: string) => Effect.Effect<void, StorageError>
}>() {}
