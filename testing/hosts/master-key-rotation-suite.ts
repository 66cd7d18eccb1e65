import { createHash } from "node:crypto"
import type { SqlClient } from "@effect/sql"
import type { Layer } from "effect"
import { expect, it } from "vitest"
import { makeStripeCheckoutPlugin } from "../../adapters/gateways/stripe-checkout/index.js"
import { open } from "../../core/signing/secret-box.js"
import type { IssuedCredentials, MerchantPayments, MerchantPaymentsOptions } from "../../hosts/embedding/index.js"
import { waitFor } from "./child-hosts.js"
import { clientFor, notOpeningUnder, runCli, serveKit, type ServedKit, startReceiver, storeView } from "./rotation-kits.js"

export const OLD_KEY = "a1".repeat(32)
export const NEW_KEY = "b2".repeat(32)
const keyBytes = (hex: string) => Uint8Array.from(Buffer.from(hex, "hex"))
const STRIPE_SECRET_KEY = "sk_test_51RotationSecretNeverEchoed"
const PAYOUT_IBAN = "GB29NWBK60161331926819"

export interface RotationStore {
  /** The kit's `database` option. */
  readonly database: string
  /** The same store as the CLI reads it. */
  readonly databaseUrl: string
  /** A client of the test's own on the same store. */
  readonly client: () => Layer.Layer<SqlClient.SqlClient, unknown>
}

interface Shop {
  readonly name: string
  /** Every sandbox credential set that opens the API now (an overlap keeps two). */
  readonly sandbox: Array<IssuedCredentials>
  readonly production: Array<IssuedCredentials>
}

const options = (store: RotationStore, keys: Pick<MerchantPaymentsOptions, "masterKey" | "previousMasterKey">): Omit<MerchantPaymentsOptions, "baseUrl"> => ({
  database: store.database,
  ...keys,
  plugins: [makeStripeCheckoutPlugin()],
  webhooks: { allowPrivateTargets: true, pollIntervalMillis: 20, retryDelaysMillis: [50, 50], timeoutMs: 2_000 },
  logging: false
})

/** Three merchants (one mid credential overlap, one with production credentials too) and a Stripe gateway with sealed secrets. */
const onboard = async (payments: MerchantPayments): Promise<ReadonlyArray<Shop>> => {
  await payments.admin.settings.update({ rate_limit_per_minute: 1_000_000 })
  const shops: Array<Shop> = []
  for (const name of ["Plain shop", "Overlapping shop", "Two-environment shop"]) {
    const merchant = await payments.admin.merchants.create({ name, status: "approved" })
    await payments.admin.currencies.replace(merchant.id, ["USD"])
    await payments.admin.wallets.create(merchant.id, { currency_code: "USD", environment: "sandbox" })
    const shop: Shop = { name, sandbox: [await payments.admin.credentials.issue(merchant.id, "sandbox")], production: [] }
    if (name === "Overlapping shop") shop.sandbox.push(await payments.admin.credentials.issue(merchant.id, "sandbox", { overlapSeconds: 3_600 }))
    if (name === "Two-environment shop") shop.production.push(await payments.admin.credentials.issue(merchant.id, "production"))
    shops.push(shop)
  }
  await payments.admin.gateways.create({
    plugin: "stripe-checkout", name: "Card (Stripe)", currency_code: "USD", method: "card", active: false,
    config: { secret_key: STRIPE_SECRET_KEY, webhook_secret: "whsec_RotationSecretNeverEchoed" }
  })
  return shops
}

/** 2 per credential set (client and webhook secret), the gateway's 2 sealed fields and the payout destination's IBAN. */
const sealedCount = (shops: ReadonlyArray<Shop>) => 3 + 2 * shops.reduce((n, shop) => n + shop.sandbox.length + shop.production.length, 0)

const everySetSigns = async (kit: ServedKit, shops: ReadonlyArray<Shop>) => {
  for (const shop of shops) {
    for (const set of shop.sandbox) expect((await clientFor(kit.origin, set).siteInfo()), shop.name).toBeDefined()
    for (const set of shop.production) expect((await clientFor(kit.origin, set, "production").siteInfo()), shop.name).toBeDefined()
  }
}

const opens = async (kit: ServedKit, paymentUrl: string) =>
  (await fetch(`${kit.origin}${new URL(paymentUrl).pathname}`, { signal: AbortSignal.timeout(10_000) })).status

/**
 * A master key rotation as an operator runs it: hosts move to both keys, the command re-seals the
 * store once, hosts move to the new key alone; every merchant still signs and verifies its
 * webhooks, and a checkout link issued before opens while the previous key is configured.
 */
export const masterKeyRotationSuite = (store: () => RotationStore) => {
  it("re-seals every stored secret under the new key; merchants sign and verify webhooks under it alone", async () => {
    const view = storeView(store().client())
    const receiver = await startReceiver()
    const kits: Array<ServedKit> = []
    const serve = async (keys: Pick<MerchantPaymentsOptions, "masterKey" | "previousMasterKey">) => {
      const kit = await serveKit(options(store(), keys))
      kits.push(kit)
      return kit
    }
    try {
      // Before: the old key alone seals everything and issues a checkout link.
      const before = await serve({ masterKey: OLD_KEY })
      const shops = await onboard(before.payments)
      const destinationBody = { type: "bank_account", account_holder: "Plain shop Ltd", iban: PAYOUT_IBAN, currency: "USD" } as const
      const destinationMade = await clientFor(before.origin, shops[0]!.sandbox[0]!).createPayoutDestination(destinationBody, { idempotencyKey: "destination-1" })
      // The request's fingerprint is keyed: the IBAN's body cannot be found from the store by hashing guesses.
      const fingerprints = (await view.rows("SELECT fingerprint FROM idempotency_keys")).map((row) => String(row["fingerprint"]))
      expect(fingerprints.length).toBeGreaterThan(0)
      const plainBodyHash = createHash("sha256").update(JSON.stringify(destinationBody)).digest("hex")
      for (const fingerprint of fingerprints) {
        expect(fingerprint).not.toBe(plainBodyHash)
        expect(fingerprint).not.toBe(createHash("sha256").update(`POST /api/v1/payout-destinations\n${plainBodyHash}`).digest("hex"))
      }
      const link = (await clientFor(before.origin, shops[0]!.sandbox[0]!).initiatePayment({
        payment_amount: "10.00", currency_code: "USD", ref_trx: "before-rotation",
        success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel", ipn_url: `${receiver.url}/ipn`
      })).payment_url
      const sealedBefore = await view.sealedValues()
      expect(sealedBefore.length).toBe(sealedCount(shops))
      expect(notOpeningUnder(keyBytes(OLD_KEY), sealedBefore)).toEqual([])
      await before.close()

      // Every host is redeployed with both keys, and serves.
      const both = await serve({ masterKey: NEW_KEY, previousMasterKey: OLD_KEY })
      await everySetSigns(both, shops)
      expect(await opens(both, link)).toBe(200)
      // A retry of a keyed request made under the old key replays there: the rotation broke no retry.
      expect(await clientFor(both.origin, shops[0]!.sandbox[0]!).createPayoutDestination(destinationBody, { idempotencyKey: "destination-1" }))
        .toEqual(destinationMade)
      expect(await view.rows("SELECT id FROM payout_destinations")).toHaveLength(1)

      // The command, once, while that host serves; then again, changing nothing.
      const env = { DATABASE_URL: store().databaseUrl, MASTER_KEY: NEW_KEY, MASTER_KEY_PREVIOUS: OLD_KEY }
      const rotated = await runCli(["rotate-master-key"], env)
      expect([rotated.code, rotated.stderr], rotated.stdout).toEqual([0, ""])
      expect(rotated.stdout).toContain(`re-sealed ${sealedCount(shops)} secrets under the new master key`)
      for (const key of [OLD_KEY, NEW_KEY]) expect(rotated.stdout).not.toContain(key)
      const again = await runCli(["rotate-master-key"], env)
      expect(again.code, again.stderr).toBe(0)
      expect(again.stdout).toContain(`re-sealed 0 secrets under the new master key (${sealedCount(shops)} already were)`)

      // No sealed text anywhere in the store is left under the old key.
      const sealedAfter = await view.sealedValues()
      expect(sealedAfter.length).toBe(sealedCount(shops))
      expect(notOpeningUnder(keyBytes(NEW_KEY), sealedAfter)).toEqual([])
      const [gateway] = await view.rows("SELECT config FROM gateways")
      const config = JSON.parse(String(gateway!["config"])) as Record<string, string>
      expect(open(keyBytes(NEW_KEY), config["secret_key"]!)).toMatchObject({ right: JSON.stringify(STRIPE_SECRET_KEY) })
      const [destination] = await view.rows("SELECT sealed_iban FROM payout_destinations")
      expect(open(keyBytes(NEW_KEY), String(destination!["sealed_iban"]))).toMatchObject({ right: PAYOUT_IBAN })

      // The host with both keys goes on serving, and the link issued before still opens there.
      await everySetSigns(both, shops)
      expect(await opens(both, link)).toBe(200)
      await both.close()

      // The new key alone: every merchant signs, and its webhooks verify with its webhook secret.
      const after = await serve({ masterKey: NEW_KEY })
      await everySetSigns(after, shops)
      for (const [i, shop] of shops.entries()) {
        const client = clientFor(after.origin, shop.sandbox.at(-1)!)
        const trxId = (await client.initiatePayment({
          payment_amount: "12.00", currency_code: "USD", ref_trx: `after-rotation-${i}`,
          success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel", ipn_url: `${receiver.url}/ipn/${i}`
        })).info.trx_id
        await client.simulatePayment(trxId, "success")
        const delivery = await waitFor(`${shop.name}'s webhook`, 20_000, () => receiver.received.find((r) => r.body.includes(trxId)))
        // Both forms: the contract's X-Signature, and the Standard Webhooks headers.
        const contract = { rawBody: delivery.body, signature: delivery.headers["x-signature"], environmentHeader: delivery.headers["x-environment"] }
        const standard = {
          ...contract,
          webhookId: delivery.headers["webhook-id"],
          webhookTimestamp: delivery.headers["webhook-timestamp"],
          webhookSignature: delivery.headers["webhook-signature"]
        }
        for (const check of [client.verifyWebhook(contract), client.verifyWebhook(standard)]) {
          expect(check.valid, `${shop.name}: ${JSON.stringify(check)}`).toBe(true)
        }
      }
      // Without the previous key, what it signed no longer opens: why the operator keeps it until links expire.
      expect(await opens(after, link)).not.toBe(200)
    } finally {
      for (const kit of kits) await kit.close().catch(() => undefined)
      await receiver.stop()
      await view.close()
    }
  }, 120_000)
}
