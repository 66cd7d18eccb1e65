import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { generateMasterKey, parseMasterKey, seal } from "../../core/signing/secret-box.js"
import { configFromEnv } from "../embedding/index.js"
import { childHostSuite } from "../../testing/hosts/child-host-suite.js"
import { masterKeyRotationSuite, NEW_KEY, OLD_KEY } from "../../testing/hosts/master-key-rotation-suite.js"
import { clientFor, notOpeningUnder, runCli, serveKit, storeView } from "../../testing/hosts/rotation-kits.js"

const keyBytes = (text: string) => Either.getOrThrow(parseMasterKey(text))
const sqliteClient = (filename: string) => () => SqliteClient.layer({ filename })

/** A store with one merchant and its credentials, sealed under `masterKey` (or the key kept in DATA_DIR). */
const seededStore = async (database: string, keys: { readonly masterKey: string } | { readonly dataDir: string }) => {
  const options = "masterKey" in keys
    ? { database: `sqlite:${database}`, masterKey: keys.masterKey }
    : await configFromEnv({ DATA_DIR: keys.dataDir, DATABASE_URL: `sqlite:${database}` })
  const kit = await serveKit({ ...options, logging: false, backgroundJobs: false })
  await kit.payments.admin.settings.update({ rate_limit_per_minute: 1_000_000 })
  const merchant = await kit.payments.admin.merchants.create({ name: "Kept-key shop", status: "approved" })
  await kit.payments.admin.currencies.replace(merchant.id, ["USD"])
  await kit.payments.admin.wallets.create(merchant.id, { currency_code: "USD", environment: "sandbox" })
  const credentials = await kit.payments.admin.credentials.issue(merchant.id, "sandbox")
  const link = (await clientFor(kit.origin, credentials).initiatePayment({
    payment_amount: "5.00", currency_code: "USD", ref_trx: "kept-key",
    success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel", ipn_url: "https://shop.example/ipn"
  })).payment_url
  await kit.close()
  return { credentials, link }
}

describe("rotate-master-key on SQLite", () => {
  const scratch = childHostSuite("mp-rotate-", { receiver: false })

  describe("with MASTER_KEY and MASTER_KEY_PREVIOUS", () => {
    const file = () => join(scratch(), "rotation.db")
    masterKeyRotationSuite(() => ({ database: `sqlite:${file()}`, databaseUrl: `sqlite:${file()}`, client: sqliteClient(file()) }))
  })

  it("refuses, one line on stderr and nothing written, without MASTER_KEY_PREVIOUS or when a value opens under neither key", async () => {
    const database = join(scratch(), "refusals.db")
    await seededStore(database, { masterKey: OLD_KEY })
    const view = storeView(sqliteClient(database)())
    try {
      const snapshot = async () => JSON.stringify(await view.rows("SELECT * FROM merchant_credentials"))
      const before = await snapshot()
      const url = `sqlite:${database}`

      const missing = await runCli(["rotate-master-key"], { DATABASE_URL: url, MASTER_KEY: NEW_KEY })
      expect([missing.code, missing.stdout]).toEqual([1, ""])
      expect(missing.stderr.trim().split("\n")).toEqual([expect.stringContaining("needs MASTER_KEY_PREVIOUS: MASTER_KEY is the new key")])
      const postgres = await runCli(["rotate-master-key"], { DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" })
      expect([postgres.code, postgres.stderr.trim()]).toEqual([1, expect.stringContaining("needs MASTER_KEY and MASTER_KEY_PREVIOUS")])
      const badPrevious = await runCli(["rotate-master-key"], { DATABASE_URL: url, MASTER_KEY: NEW_KEY, MASTER_KEY_PREVIOUS: "short" })
      expect([badPrevious.code, badPrevious.stderr.trim()]).toEqual([1, expect.stringContaining("MASTER_KEY_PREVIOUS must be 32 bytes")])

      const same = await runCli(["rotate-master-key"], { DATABASE_URL: url, MASTER_KEY: OLD_KEY, MASTER_KEY_PREVIOUS: OLD_KEY })
      expect([same.code, same.stderr.trim()]).toEqual([1, expect.stringContaining("MASTER_KEY_PREVIOUS is the same key as MASTER_KEY")])

      // A later table holds a value under a third key: the credentials re-sealed before it are rolled back.
      await view.rows(`INSERT INTO retired_credentials (merchant_id, environment, merchant_key, api_key_hash, sealed_client_secret, sealed_webhook_secret, created_at, retires_at)
        SELECT merchant_id, environment, 'retired-key', api_key_hash, '${seal(keyBytes(generateMasterKey()), "lost")}', sealed_webhook_secret, created_at, created_at FROM merchant_credentials`)
      const neither = await runCli(["rotate-master-key"], { DATABASE_URL: url, MASTER_KEY: NEW_KEY, MASTER_KEY_PREVIOUS: OLD_KEY })
      expect([neither.code, neither.stdout]).toEqual([1, ""])
      expect(neither.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(/retired_credentials\.sealed_client_secret \(id \d+\) opens under neither MASTER_KEY nor MASTER_KEY_PREVIOUS: nothing was re-sealed/)
      ])
      expect(await snapshot()).toBe(before)
      expect(notOpeningUnder(keyBytes(OLD_KEY), (await view.sealedValues()).filter((v) => v.where.startsWith("merchant_credentials")))).toEqual([])
    } finally {
      await view.close()
    }
  }, 60_000)

  it("with the key kept in DATA_DIR: the command makes the new key, keeps the old as master.key.previous, and finishes an interrupted run", async () => {
    const dataDir = join(scratch(), "kept")
    mkdirSync(dataDir, { recursive: true })
    const database = join(dataDir, "merchant-payments.db")
    const { credentials, link } = await seededStore(database, { dataDir })
    const keyFile = (name: string) => join(dataDir, name)
    const oldKey = readFileSync(keyFile("master.key"), "utf8").trim()
    const env = { DATA_DIR: dataDir }

    const rotated = await runCli(["rotate-master-key"], env)
    expect([rotated.code, rotated.stderr], rotated.stdout).toEqual([0, ""])
    expect(rotated.stdout).toContain("re-sealed 2 secrets under the new master key")
    const newKey = readFileSync(keyFile("master.key"), "utf8").trim()
    expect(newKey).not.toBe(oldKey)
    expect(rotated.stdout).not.toContain(newKey)
    expect(readFileSync(keyFile("master.key.previous"), "utf8").trim()).toBe(oldKey)
    expect(existsSync(keyFile("master.key.next"))).toBe(false)

    // The host reads both files: the merchant signs, and the link issued before still opens.
    const view = storeView(sqliteClient(database)())
    try {
      expect(notOpeningUnder(keyBytes(newKey), await view.sealedValues())).toEqual([])
      const kit = await serveKit({ ...(await configFromEnv(env)), logging: false, backgroundJobs: false })
      expect(await clientFor(kit.origin, credentials).siteInfo()).toBeDefined()
      expect((await fetch(`${kit.origin}${new URL(link).pathname}`)).status).toBe(200)
      await kit.close()

      // A run stopped after it staged its key: hosts refuse to start until the command is run again.
      const staged = generateMasterKey()
      writeFileSync(keyFile("master.key.next"), `${staged}\n`, { mode: 0o600 })
      await expect(configFromEnv(env)).rejects.toThrow(/master key rotation was interrupted .*run rotate-master-key again/)
      const serve = await runCli(["serve"], { ...env, PORT: "0", HOST: "127.0.0.1", DEMO: "false" })
      expect([serve.code, serve.stderr.trim()]).toEqual([1, expect.stringMatching(/^merchant-payments: a master key rotation was interrupted .*run rotate-master-key again/)])
      const finished = await runCli(["rotate-master-key"], env)
      expect(finished.code, finished.stderr).toBe(0)
      expect(finished.stdout).toContain("re-sealed 2 secrets under the new master key")
      expect(readFileSync(keyFile("master.key"), "utf8").trim()).toBe(staged)
      expect(readFileSync(keyFile("master.key.previous"), "utf8").trim()).toBe(newKey)
      expect(existsSync(keyFile("master.key.next"))).toBe(false)
      expect(notOpeningUnder(keyBytes(staged), await view.sealedValues())).toEqual([])
      const restarted = await serveKit({ ...(await configFromEnv(env)), logging: false, backgroundJobs: false })
      expect(await clientFor(restarted.origin, credentials).siteInfo()).toBeDefined()
      await restarted.close()
    } finally {
      await view.close()
    }
  }, 60_000)
})
