import { Effect } from "effect"
import { createGateway } from "../../core/gateways/gateway-admin.js"
import { createMerchant, issueCredentials, replaceCurrencies } from "../../core/merchants/merchant-admin.js"
import { defaultSiteSettings } from "../../core/settings/site-settings.js"
import { createWallet } from "../../core/wallets/wallet-admin.js"
import type { OutboxMail } from "../../core/mail/mail.js"
import type { MailKind } from "../../core/mail/mail-kind.js"
import { MailOutbox } from "../../core/mail/mail-outbox.js"
import type { MerchantId } from "../../core/shared/ids.js"
import type { KitConfig, StoreConfig } from "../../hosts/kit-layer.js"
import type { RecordingReceiver } from "../../testing/http/loopback.js"
import type { TestCaller } from "../../testing/http/signed-client.js"
import { testKitConfig } from "./test-kit-config.js"

type Json = Record<string, any>

/**
 * The kit as the billing suites run it: background jobs on (webhooks and mail go out), real time's
 * minute loop off (a suite moves time itself), webhooks to loopback retried fast, no rate limit.
 * The long webhook timeout keeps a stalled test process from turning an answered attempt into a retry.
 */
export const billingKitConfig = (store: StoreConfig, overrides: Partial<KitConfig> = {}): KitConfig =>
  testKitConfig(store, {
    backgroundJobs: true,
    scheduler: { enabled: false, batchSize: 100 },
    settings: { ...defaultSiteSettings, rateLimitPerMinute: 1_000_000 },
    webhooks: { timeoutMs: 30_000, retryDelaysMillis: [500], allowPrivateTargets: true, pollIntervalMillis: 25 },
    ...overrides
  })

/** An approved merchant selling in USD through its own sandbox gateway (`method`): its sandbox credentials, and its id (to read its store). */
export const sandboxShop = (name: string, method: string) =>
  Effect.gen(function*() {
    const merchant = yield* createMerchant({ name, status: "approved" })
    yield* replaceCurrencies(merchant.id, ["USD"])
    yield* createWallet(merchant.id, "USD", "sandbox")
    yield* createGateway({ plugin: "sandbox", name: "Card", currencyCode: "USD", method: `${method}${merchant.id}`, type: "automatic", active: true })
    const issued = yield* issueCredentials(merchant.id, "sandbox")
    const caller: TestCaller = { environment: "sandbox", merchantKey: issued.merchantKey, apiKey: issued.apiKey, clientSecret: issued.clientSecret }
    return { ...caller, merchantId: merchant.id }
  })

/** The event bodies the receiver's `/ipn` got, each event once (by its id: a retry is not a second event), in arrival order. */
export const ipnEvents = (receiver: RecordingReceiver): ReadonlyArray<Json> => {
  const byId = new Map<string, Json>()
  for (const delivery of receiver.received.filter((r) => r.path === "/ipn")) {
    const id = String(delivery.headers["webhook-id"] ?? delivery.headers["x-event-id"])
    if (!byId.has(id)) byId.set(id, JSON.parse(delivery.body) as Json)
  }
  return [...byId.values()]
}

/** The sandbox mail a merchant's customers were sent, of one kind (sandbox mail is always kept for the dashboard). */
export const sandboxMailOf = <K extends MailKind>(merchantId: MerchantId, kind: K) =>
  Effect.map(Effect.flatMap(MailOutbox, (outbox) => outbox.listForMerchant(merchantId, "sandbox", 200)), (mails) =>
    mails.filter((mail): mail is Extract<OutboxMail, { readonly kind: K }> => mail.kind === kind))
