import { spawn } from "node:child_process"
import { copyFileSync, existsSync, mkdirSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { childHostSuite } from "../../testing/hosts/child-host-suite.js"
import { baseEnv, MAIN, ROOT, sleep, startHost, stop } from "../../testing/hosts/child-hosts.js"
import { merchantCall } from "../../testing/hosts/demo-fixtures.js"
import { onboardMerchant } from "../../testing/hosts/shared-store-fixtures.js"

const ADMIN_TOKEN = "backup-admin-token"
const MASTER_KEY = "cd".repeat(32)
const STORE = "merchant-payments.db"

/** The built CLI with `args`, its output and exit code. */
const cli = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>>) =>
  new Promise<{ readonly code: number | null; readonly output: string }>((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, env: { ...baseEnv(), ...env }, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
    child.once("exit", (code) => resolve({ code, output }))
  })

describe("backup of the embedded SQLite store while the host serves", () => {
  const scratch = childHostSuite("mp-backup-", { receiver: false })

  it("copies the store under a payment load; a second host on the copy verifies every payment answered before it began", async () => {
    const data = join(scratch(), "live")
    const env = { MASTER_KEY, ADMIN_TOKEN, DEMO: "false", RATE_LIMIT_PER_MINUTE: "1000000", LOG_LEVEL: "warn" }
    const host = await startHost(data, env)
    const shop = await onboardMerchant(host, ADMIN_TOKEN, "Backup shop", { fee_percent: "0", fee_fixed: "0" })

    // Four clients pay, one payment after another, until told to stop.
    const answered: Array<string> = []
    let loading = true
    const client = async (n: number) => {
      for (let i = 0; loading; i++) {
        const initiated = await merchantCall(host, shop, "POST", "/api/v1/initiate-payment", {
          payment_amount: "10.00", currency_code: "USD", ref_trx: `backup-${n}-${i}`,
          success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel", ipn_url: "https://shop.example/ipn"
        })
        expect(initiated.status, initiated.text).toBe(200)
        const trxId = String(initiated.json.info.trx_id)
        const paid = await merchantCall(host, shop, "POST", `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome: "success" })
        expect(paid.status, paid.text).toBe(200)
        answered.push(trxId)
      }
    }
    const load = Promise.all([0, 1, 2, 3].map(client))
    await sleep(1_500)
    const before = [...answered]
    const copy = join(scratch(), "copy.db")
    const backup = await cli(["backup", copy], { DATA_DIR: data })
    await sleep(500)
    loading = false
    await load
    expect(backup.code, backup.output).toBe(0)
    expect(backup.output).toMatch(/backed up .*copy\.db.*integrity_check ok/)
    expect(before.length).toBeGreaterThan(10)
    expect(answered.length).toBeGreaterThan(before.length)

    // A second backup to the same file is refused, and leaves the first whole.
    const again = await cli(["backup", copy], { DATA_DIR: data })
    expect([again.code, again.output]).toEqual([1, expect.stringMatching(/copy\.db exists; back up to a new file/)])
    expect(existsSync(`${copy}.partial`)).toBe(false)
    await stop(host)

    // A host started on the copy has every payment answered before the backup began, paid.
    const restoredData = join(scratch(), "restored")
    mkdirSync(restoredData, { recursive: true })
    copyFileSync(copy, join(restoredData, STORE))
    const restored = await startHost(restoredData, env)
    for (const trxId of before) {
      const verified = await merchantCall(restored, shop, "GET", `/api/v1/verify-payment/${trxId}`)
      expect([verified.status, verified.json?.status], verified.text).toEqual([200, "success"])
    }
    await stop(restored)
  }, 120_000)

  it("refuses a PostgreSQL store and a missing file argument, saying what to do instead", async () => {
    const missing = await cli(["backup"], { DATA_DIR: join(scratch(), "none") })
    expect(missing.code).toBe(2)
    expect(missing.output).toMatch(/usage: merchant-payments/)
    const postgres = await cli(["backup", join(scratch(), "pg.db")], { DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" })
    expect(postgres.code).toBe(1)
    expect(postgres.output).toMatch(/pg_dump/)
  })
})
