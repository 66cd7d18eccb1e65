import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { createMerchant, issueCredentials, replaceCurrencies } from "../../core/merchants/merchant-admin.js"
import { MerchantRepository } from "../../core/merchants/merchant-repository.js"
import { createGateway } from "../../core/gateways/gateway-admin.js"
import { fromMillis, plusSeconds } from "../../core/shared/instant.js"
import { Transactor } from "../../core/shared/transactor.js"
import { Ids } from "../../core/signing/random-ids.js"
import { SchedulerLease } from "../../core/subscriptions/scheduler-lease.js"
import { createWallet } from "../../core/wallets/wallet-admin.js"

export interface DemoCredentials {
  readonly merchant_id: number
  readonly environment: "sandbox"
  readonly merchant_key: string
  readonly api_key: string
  readonly client_secret: string
  readonly webhook_secret: string
}

/** The demo credentials seeded (or found) at start, if any. */
export class DemoSeed extends Context.Tag("merchant-payments/standalone/DemoSeed")<DemoSeed, DemoCredentials | undefined>() {}

const FILE = "demo-credentials.json"

/**
 * On an empty store: an approved demo merchant with USD enabled, a sandbox USD wallet, a sandbox USD
 * gateway and sandbox credentials. The plaintext credentials are kept beside a SQLite quickstart's database so later
 * starts can print them again; with any other store they are shown once, at creation.
 */
const fee = (text: string) => ({ kind: "json-number", text }) as const

/** Everything the demo needs, in one transaction: a kill during the first start leaves no half-built demo. */
const createDemo = Effect.flatMap(Transactor, ({ withTransaction }) =>
  withTransaction(Effect.gen(function*() {
    const merchant = yield* createMerchant({ name: "Demo Store", status: "approved", feePercent: fee("2.9"), feeFixed: fee("0.30") })
    yield* replaceCurrencies(merchant.id, ["USD"])
    yield* createWallet(merchant.id, "USD", "sandbox")
    // A sandbox gateway for the demo's hosted checkout; an existing one (a re-seeded store) is reused.
    yield* createGateway({ plugin: "sandbox", name: "Sandbox card", currencyCode: "USD", method: "sandbox", type: "automatic", active: true }).pipe(
      Effect.catchTag("GatewayCodeTaken", () => Effect.void)
    )
    const issued = yield* issueCredentials(merchant.id, "sandbox")
    const demo: DemoCredentials = {
      merchant_id: merchant.id,
      environment: "sandbox",
      merchant_key: issued.merchantKey,
      api_key: issued.apiKey,
      client_secret: issued.clientSecret,
      webhook_secret: issued.webhookSecret
    }
    return demo
  })))

/** The store lease that lets one host seed while others wait: hosts started together seed one demo. */
const SEED_LEASE = "demo-seed"
/** Long enough for the seeding transaction; a host killed mid-seed frees it by expiry. */
const SEED_LEASE_SECONDS = 60

const existingDemo = (directory: string | undefined): DemoCredentials | undefined => {
  const path = directory === undefined ? undefined : join(directory, FILE)
  return path !== undefined && existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as DemoCredentials) : undefined
}

/**
 * Seeds the demo on an empty store, once however many hosts start together on it: the check and
 * the seeding run under a lease in the store, so a host that finds it taken waits and looks again
 * (by then the store is not empty). The lease is on real time: seeding happens before any manual
 * clock is in use.
 */
export const seedDemoMerchant = (directory: string | undefined) =>
  Effect.gen(function*() {
    const merchants = yield* MerchantRepository
    const lease = yield* SchedulerLease
    const holder = `demo-seed/${yield* (yield* Ids).uuid}`
    while (true) {
      if ((yield* merchants.count) > 0) return existingDemo(directory)
      const now = fromMillis(yield* Clock.currentTimeMillis)
      if (yield* lease.acquire(SEED_LEASE, holder, now, plusSeconds(now, SEED_LEASE_SECONDS))) break
      yield* Effect.sleep("100 millis")
    }
    return yield* Effect.gen(function*() {
      // Looked at again under the lease: another host may have seeded between the count and the lease.
      if ((yield* merchants.count) > 0) return existingDemo(directory)
      const demo = yield* createDemo
      if (directory !== undefined) writeFileSync(join(directory, FILE), JSON.stringify(demo, null, 2), { mode: 0o600 })
      return demo
    }).pipe(Effect.ensuring(Effect.ignore(lease.release(SEED_LEASE, holder))))
  })
