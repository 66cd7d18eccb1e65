import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ensureBuilt } from "../../testing/hosts/build.js"
import { freePort } from "../../testing/hosts/child-hosts.js"
import { expectOneLine } from "../../testing/hosts/startup-runs.js"

const MASTER_KEY = "11".repeat(32)

describe("standalone host: a start-up problem is one clear line and exit 1", () => {
  let scratch = ""
  let occupied: Server | undefined
  beforeAll(async () => {
    await ensureBuilt()
    scratch = mkdtempSync(join(tmpdir(), "mp-startup-errors-"))
  }, 200_000)
  afterAll(() => {
    occupied?.close()
    try {
      chmodSync(join(scratch, "locked"), 0o700)
    } catch {
      // That case did not run.
    }
    if (scratch !== "") rmSync(scratch, { recursive: true, force: true })
  })
  const directory = (name: string) => {
    const path = join(scratch, name)
    mkdirSync(path, { recursive: true })
    return path
  }

  it("port in use", async () => {
    const port = await freePort()
    occupied = createServer()
    await new Promise<void>((resolve) => occupied!.listen(port, "127.0.0.1", resolve))
    expect(await expectOneLine({ PORT: String(port), DATA_DIR: directory("port") })).toBe(
      `merchant-payments: port ${port} is in use (set PORT)`
    )
  }, 90_000)

  it("a data directory under a file", async () => {
    writeFileSync(join(scratch, "a-file"), "")
    const line = await expectOneLine({ DATA_DIR: join(scratch, "a-file", "data") })
    expect(line).toContain(join(scratch, "a-file", "data"))
    expect(line).toMatch(/not a directory.*\(set DATA_DIR or DATABASE_URL\)$/)
  }, 90_000)

  it("a database path that is a directory", async () => {
    const data = directory("db-is-a-directory")
    mkdirSync(join(data, "merchant-payments.db"))
    expect(await expectOneLine({ DATA_DIR: data })).toBe(
      `merchant-payments: cannot open the SQLite database ${join(data, "merchant-payments.db")}: unable to open database file (set DATA_DIR or DATABASE_URL)`
    )
  }, 90_000)

  // root reads and writes through any permission, so this case means something only for other users.
  it.skipIf(process.getuid?.() === 0)("a data directory without permission", async () => {
    const locked = directory("locked")
    chmodSync(locked, 0o000)
    expect(await expectOneLine({ DATA_DIR: join(locked, "data") })).toMatch(/permission denied/)
  }, 90_000)

  it("an unknown DATABASE_URL scheme", async () => {
    expect(await expectOneLine({ DATABASE_URL: "mysql://root:hunter2@db/shop" })).toBe(
      `merchant-payments: DATABASE_URL must start with postgres://, postgresql:// or sqlite:, got "mysql://***@db/shop"`
    )
  }, 90_000)

  it("an unreachable PostgreSQL, without its password", async () => {
    const port = await freePort()
    const line = await expectOneLine({ MASTER_KEY, DATABASE_URL: `postgres://shop:hunter2@127.0.0.1:${port}/shop` })
    expect(line).toBe(`merchant-payments: cannot connect to PostgreSQL at 127.0.0.1:${port}/shop: connect ECONNREFUSED 127.0.0.1:${port} (check DATABASE_URL)`)
  }, 90_000)

  it("a malformed DATABASE_URL, without its password, also for migrate", async () => {
    for (const command of ["serve", "migrate"]) {
      const line = await expectOneLine({ MASTER_KEY, DATABASE_URL: "postgres://shop:hunter2@127.0.0.1:notaport/shop" }, command)
      expect(line).toBe("merchant-payments: DATABASE_URL is not a valid URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE)")
    }
  }, 90_000)
})
