import { HttpApp } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect, Either, Logger, LogLevel, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../../adapters/http/app.js"
import { createMerchantClient } from "../../client/index.js"
import { createMerchant, issueCredentials, replaceCurrencies } from "../../core/merchants/merchant-admin.js"
import { MAX_PAYOUT_DESTINATIONS } from "../../core/payouts/payout-destination.js"
import { defaultSiteSettings } from "../../core/settings/site-settings.js"
import { isSealedText } from "../../core/signing/reseal.js"
import { open } from "../../core/signing/secret-box.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { signedRequest, type TestCaller } from "../../testing/http/signed-client.js"
import { testKitConfig } from "./test-kit-config.js"

const IBAN = "DE89370400440532013000"
const PATH = "/api/v1/payout-destinations"
const bankAccount = (overrides: Record<string, unknown> = {}) => ({
  type: "bank_account",
  account_holder: "Example Shop GmbH",
  iban: "de89 3704 0044 0532 0130 00",
  bic: "cobadeffxxx",
  currency: "EUR",
  ...overrides
})

/** Payout destinations through the whole HTTP app, signed as a merchant calls them, over a real store. */
export const payoutDestinationSuite = (name: string, store: () => StoreConfig) =>
  describe(`payout destinations over HTTP: ${name}`, () => {
    const config = () => testKitConfig(store(), { settings: { ...defaultSiteSettings, rateLimitPerMinute: 1_000_000 } })
    let runtime: ManagedRuntime.ManagedRuntime<any, any>
    let handler: (request: Request) => Promise<Response>
    let shop: TestCaller
    let shopLive: TestCaller
    let other: TestCaller

    /** A merchant of `currencies` with credentials in both environments. */
    const caller = (currencies: ReadonlyArray<string>) =>
      runtime.runPromise(Effect.gen(function*() {
        const merchant = yield* createMerchant({ name: "Payout shop", status: "approved" })
        yield* replaceCurrencies(merchant.id, currencies)
        const sandbox = yield* issueCredentials(merchant.id, "sandbox")
        const production = yield* issueCredentials(merchant.id, "production")
        return {
          sandbox: { environment: "sandbox" as const, merchantKey: sandbox.merchantKey, apiKey: sandbox.apiKey, clientSecret: sandbox.clientSecret },
          production: { environment: "production" as const, merchantKey: production.merchantKey, apiKey: production.apiKey, clientSecret: production.clientSecret }
        }
      }) as Effect.Effect<{ sandbox: TestCaller; production: TestCaller }, unknown, never>)

    beforeAll(async () => {
      runtime = ManagedRuntime.make(kitLayer(config()))
      handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp.pipe(Logger.withMinimumLogLevel(LogLevel.Warning)))
      const mine = await caller(["EUR", "USD"])
      shop = mine.sandbox
      shopLive = mine.production
      other = (await caller(["EUR"])).sandbox
    })
    afterAll(() => runtime.dispose())

    const call = async (who: TestCaller, method: string, path: string, body?: object, headers: Record<string, string> = {}) => {
      const response = await handler(signedRequest(who, method, path, body === undefined ? "" : JSON.stringify(body), headers))
      const text = await response.text()
      return { status: response.status, text, body: JSON.parse(text) as any, replayed: response.headers.get("idempotent-replayed") }
    }
    const rawRow = (id: string) =>
      runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql<Record<string, unknown>>`SELECT * FROM payout_destinations WHERE id = ${id}`) as Effect.Effect<ReadonlyArray<Record<string, unknown>>, unknown, never>)

    it("adds a bank account: 201 with the IBAN masked, the BIC normalised, the full IBAN in no answer", async () => {
      const created = await call(shop, "POST", PATH, bankAccount())
      expect(created.status).toBe(201)
      expect(created.body.data).toEqual({
        id: expect.stringMatching(/^pd_[0-9a-f]{32}$/),
        type: "bank_account",
        account_holder: "Example Shop GmbH",
        iban_masked: "DE89 **** **** **** **30 00",
        bic: "COBADEFFXXX",
        currency: "EUR",
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
      })
      const listed = await call(shop, "GET", PATH)
      expect(listed.status).toBe(200)
      expect(listed.body.data).toEqual([created.body.data])
      for (const text of [created.text, listed.text]) {
        expect(text).not.toContain(IBAN)
        expect(text).not.toContain("0532013000")
        expect(text).not.toContain("v1.")
      }
    })

    it("keeps the IBAN sealed under the master key: the raw row never holds it in clear", async () => {
      const created = await call(shop, "POST", PATH, bankAccount({ iban: "GB29 NWBK 6016 1331 9268 19", bic: undefined, currency: "USD" }))
      expect([created.status, created.body.data.bic, created.body.data.iban_masked]).toEqual([201, null, "GB29 **** **** **** **68 19"])
      const [row] = await rawRow(created.body.data.id)
      expect(JSON.stringify(row)).not.toContain("GB29NWBK60161331926819")
      expect(JSON.stringify(row)).not.toContain("60161331926819")
      const sealed = String(row!["sealed_iban"])
      expect(isSealedText(sealed)).toBe(true)
      expect(open(config().masterKey, sealed)).toEqual(Either.right("GB29NWBK60161331926819"))
    })

    it("refuses a bad IBAN checksum, a bad BIC, an unknown currency and a blank holder, naming each field", async () => {
      const checksum = await call(shop, "POST", PATH, bankAccount({ iban: "DE89370400440532013001" }))
      expect([checksum.status, checksum.body.error_code]).toEqual([422, "VALIDATION_FAILED"])
      expect(checksum.body.errors).toEqual({ iban: ["The iban field's check digits do not match: it has a typing error."] })

      const all = await call(shop, "POST", PATH, bankAccount({ iban: "XX00 1234", bic: "NOT A BIC", account_holder: "   ", type: "card" }))
      expect(all.status).toBe(422)
      expect(Object.keys(all.body.errors).sort()).toEqual(["account_holder", "bic", "iban", "type"])
      expect(all.text).not.toContain("XX001234")

      const long = await call(shop, "POST", PATH, bankAccount({ account_holder: "x".repeat(141) }))
      expect([long.status, Object.keys(long.body.errors)]).toEqual([422, ["account_holder"]])

      const currency = await call(shop, "POST", PATH, bankAccount({ currency: "JPY" }))
      expect([currency.status, currency.body.error_code]).toEqual([422, "INVALID_CURRENCY"])
      expect(currency.body.errors.currency).toEqual([expect.stringContaining("JPY is not one of the merchant's currencies")])
      expect((await call(shop, "POST", PATH, bankAccount({ currency: "eur" }))).body.errors).toHaveProperty("currency")
    })

    it("lists and deletes only the caller's own, in its environment: any other id is 404", async () => {
      const mine = (await call(shop, "POST", PATH, bankAccount())).body.data.id as string
      const theirs = (await call(other, "POST", PATH, bankAccount())).body.data.id as string
      expect((await call(shopLive, "GET", PATH)).body.data).toEqual([])
      expect((await call(other, "GET", PATH)).body.data.map((row: { id: string }) => row.id)).toEqual([theirs])

      for (const [who, id] of [[shop, theirs], [other, mine], [shopLive, mine], [shop, "pd_none"]] as const) {
        const refused = await call(who, "DELETE", `${PATH}/${id}`)
        expect([refused.status, refused.body.error_code, refused.body.message]).toEqual([404, "NOT_FOUND", "Payout destination not found."])
      }
      const deleted = await call(shop, "DELETE", `${PATH}/${mine}`)
      expect([deleted.status, deleted.body]).toEqual([200, { data: { id: mine, deleted: true } }])
      expect((await call(shop, "GET", PATH)).body.data.map((row: { id: string }) => row.id)).not.toContain(mine)
      expect((await call(shop, "DELETE", `${PATH}/${mine}`)).status).toBe(404)
      expect((await call(other, "GET", PATH)).body.data.map((row: { id: string }) => row.id)).toEqual([theirs])
    })

    it("honours Idempotency-Key: the same key adds once and replays the answer", async () => {
      const key = `payout-destination-${Math.random().toString(36).slice(2)}`
      const first = await call(shopLive, "POST", PATH, bankAccount({ iban: "FR14 2004 1010 0505 0001 3M02 606" }), { "idempotency-key": key })
      const again = await call(shopLive, "POST", PATH, bankAccount({ iban: "FR14 2004 1010 0505 0001 3M02 606" }), { "idempotency-key": key })
      expect([first.status, again.status, again.replayed]).toEqual([201, 201, "true"])
      expect(again.body).toEqual(first.body)
      expect((await call(shopLive, "GET", PATH)).body.data).toHaveLength(1)
    })

    it("the typed client adds, lists and deletes, signing the DELETE as the server checks it", async () => {
      const fresh = (await caller(["EUR"])).production
      const client = createMerchantClient({
        baseUrl: "http://kit.test",
        environment: "production",
        merchantKey: fresh.merchantKey,
        apiKey: fresh.apiKey,
        clientSecret: fresh.clientSecret,
        retries: 0,
        fetch: (url, init) => handler(new Request(url, init))
      })
      const added = await client.createPayoutDestination({ type: "bank_account", account_holder: "Typed Shop", iban: IBAN, currency: "EUR" })
      expect(added.data).toMatchObject({ type: "bank_account", iban_masked: "DE89 **** **** **** **30 00" })
      expect((await client.listPayoutDestinations()).data.map((row) => row.id)).toEqual([added.data.id])
      expect(await client.deletePayoutDestination(added.data.id)).toEqual({ data: { id: added.data.id, deleted: true } })
      await expect(client.deletePayoutDestination(added.data.id)).rejects.toMatchObject({ status: 404 })
      expect((await client.listPayoutDestinations()).data).toEqual([])
    })

    it(`keeps at most ${MAX_PAYOUT_DESTINATIONS} per merchant and environment, with a clear 422`, async () => {
      const fresh = (await caller(["EUR"])).sandbox
      for (let i = 0; i < MAX_PAYOUT_DESTINATIONS; i++) expect((await call(fresh, "POST", PATH, bankAccount())).status).toBe(201)
      const refused = await call(fresh, "POST", PATH, bankAccount())
      expect([refused.status, refused.body.error_code]).toEqual([422, "LIMIT_REACHED"])
      expect(refused.body.errors.payout_destinations).toEqual([
        `A merchant keeps at most ${MAX_PAYOUT_DESTINATIONS} payout destinations in each environment: delete one before adding another.`
      ])
    }, 60_000)
  })
