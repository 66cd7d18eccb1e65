import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { StorageError } from "../shared/storage-error.js"
import { SettingsRepository } from "./settings-repository.js"
import { applyPatch, mergePatches, SITE_SETTINGS_KEY, SiteSettingsPatch, type SiteSettings } from "./site-settings.js"

/** Settings are read on every request (signature rules, rate limit), so they are kept in memory. */
export class SiteSettingsService extends Context.Tag("merchant-payments/SiteSettingsService")<SiteSettingsService, {
  readonly current: Effect.Effect<SiteSettings, StorageError>
  /** Merges and stores a validated patch; returns the settings now in force. */
  readonly update: (patch: SiteSettingsPatch) => Effect.Effect<SiteSettings, StorageError>
}>() {}

const decodeStored = Schema.decodeUnknownOption(Schema.parseJson(SiteSettingsPatch))

/**
 * `defaults` come from deployment config. The stored overrides are re-read at most every
 * `refreshMillis`, so an update made on another host is seen within that time; an update made
 * here is seen at once.
 */
export const layer = (defaults: SiteSettings, refreshMillis = 2_000) =>
  Layer.effect(
    SiteSettingsService,
    Effect.gen(function*() {
      const repository = yield* SettingsRepository
      // Captured once: reading the time through an effect on every request costs more than the read.
      const clock = yield* Effect.clock
      let cached: { readonly value: SiteSettings; readonly overrides: SiteSettingsPatch; readonly at: number } | undefined

      const load = Effect.gen(function*() {
        const stored = yield* repository.get(SITE_SETTINGS_KEY)
        // A row that no longer validates (hand-edited) is ignored rather than taking the API down.
        const overrides = Option.getOrElse(Option.flatMap(stored, decodeStored), () => ({}))
        cached = { value: applyPatch(defaults, overrides), overrides, at: clock.unsafeCurrentTimeMillis() }
        return cached
      })

      const fresh = Effect.suspend(() =>
        cached !== undefined && clock.unsafeCurrentTimeMillis() - cached.at < refreshMillis ? Effect.succeed(cached) : load)

      return SiteSettingsService.of({
        current: Effect.map(fresh, (entry) => entry.value),
        update: (patch) =>
          Effect.gen(function*() {
            const { overrides } = yield* load
            yield* repository.set(SITE_SETTINGS_KEY, JSON.stringify(mergePatches(overrides, patch)))
            return (yield* load).value
          })
      })
    })
  )
