import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer, ManagedRuntime } from "effect"
import * as SqliteStorage from "../../adapters/sqlite/sqlite-storage.js"
import { MerchantRepository } from "../../core/merchants/merchant-repository.js"
import { createMerchantUser } from "../../core/merchant-users/user-admin.js"
import { setPasswordWithLink } from "../../core/merchant-users/password-link.js"
import { Amount } from "../../core/money/amount.js"
import * as RateLimiter from "../../core/rate-limit/rate-limiter.js"
import { makeManualClock } from "../../core/shared/manual-clock.js"
import { RealClock } from "../../core/shared/real-clock.js"
import { layer as IdsLive } from "../../core/signing/random-ids.js"

/** Ten seconds into a minute: a throttle window then has 50 seconds left. */
export const START = Date.UTC(2030, 0, 1, 9, 0, 10)

/**
 * The dashboard's use cases over a real SQLite store, with one manual clock for business time and
 * for the wall clock the throttle counts on, so expiry and throttle windows move only when told.
 */
export const dashboardKit = (prefix: string) => {
  const clock = makeManualClock(START)
  const runtime = ManagedRuntime.make(Layer.mergeAll(RateLimiter.layer(), IdsLive, Layer.succeed(RealClock, clock.clock)).pipe(
    Layer.provideMerge(SqliteStorage.layer({ filename: join(mkdtempSync(join(tmpdir(), prefix)), "store.db") }))
  ))
  type Services = ManagedRuntime.ManagedRuntime.Context<typeof runtime>
  const run = <A, E>(effect: Effect.Effect<A, E, Services>) => runtime.runPromise(Effect.withClock(effect, clock.clock))
  /** The failure an effect ends with (the test fails if it succeeds). */
  const failure = <A, E>(effect: Effect.Effect<A, E, Services>) => run(Effect.flip(effect))
  const advance = (seconds: number) => Effect.runPromise(clock.advance(seconds))
  const merchant = () =>
    run(Effect.flatMap(MerchantRepository, (merchants) =>
      merchants.create({ name: "Dashboard Books", status: "approved", feePercent: Amount(0n), feeFixed: Amount(0n) }))).then((created) => created.id)
  let counter = 0
  /** An active user of a new merchant, with its password set. */
  const activeUser = async (password = "a long enough password", role: "owner" | "viewer" = "owner") => {
    const email = `user-${++counter}-${Math.random().toString(36).slice(2, 8)}@shop.example`
    const created = await run(createMerchantUser(await merchant(), { email, role }))
    const user = await run(setPasswordWithLink(created.passwordToken, password))
    return { user, email, password }
  }
  return { clock, runtime, run, failure, advance, merchant, activeUser }
}
