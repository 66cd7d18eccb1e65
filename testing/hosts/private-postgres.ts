/**
 * A PostgreSQL cluster of the test's own, on a free port with trust auth, that the test may stop,
 * start and restart under load: the shared server others test against is never touched. Built with
 * the installed server's own initdb and pg_ctl; run as the `postgres` OS user when the test runs as
 * root (the server refuses root).
 */
import { execFile } from "node:child_process"
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { freePort } from "./child-hosts.js"

const run = promisify(execFile)
const PG_ROOT = "/usr/lib/postgresql"

/** The newest installed server's bin directory, or undefined when there is none (the suite then skips). */
export const postgresBinDir = (): string | undefined => {
  if (!existsSync(PG_ROOT)) return undefined
  const versions = readdirSync(PG_ROOT).filter((name) => existsSync(join(PG_ROOT, name, "bin", "pg_ctl")))
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0]
  return newest === undefined ? undefined : join(PG_ROOT, newest, "bin")
}

export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string
  readonly start: () => Promise<void>
  /** Fast shutdown: open sessions are ended (57P01), as an operator's restart does. */
  readonly stop: () => Promise<void>
  readonly restart: () => Promise<void>
  /** Stops it (if running) and removes its files. */
  readonly remove: () => Promise<void>
}

const postgresUser = async (): Promise<{ readonly uid: number; readonly gid: number } | undefined> => {
  if (process.getuid?.() !== 0) return undefined
  const [uid, gid] = await Promise.all([run("id", ["-u", "postgres"]), run("id", ["-g", "postgres"])])
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) }
}

export const createPrivatePostgres = async (binDir: string): Promise<PrivatePostgres> => {
  const owner = await postgresUser()
  const dir = mkdtempSync(join(tmpdir(), "mp-private-pg-"))
  if (owner !== undefined) chownSync(dir, owner.uid, owner.gid)
  const data = join(dir, "data")
  const port = await freePort()
  const tool = (name: string, args: ReadonlyArray<string>) =>
    owner === undefined
      ? run(join(binDir, name), [...args], { timeout: 60_000 })
      : run("runuser", ["-u", "postgres", "--", join(binDir, name), ...args], { timeout: 60_000 })
  await tool("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"])
  // Its own socket directory and loopback only; no fsync: the test is about connections, not disks.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`
  const ctl = (...args: ReadonlyArray<string>) => tool("pg_ctl", ["-D", data, "-l", join(dir, "server.log"), "-w", "-t", "60", ...args])
  let running = false
  const handle: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: async () => {
      await ctl("-o", options, "start")
      running = true
    },
    stop: async () => {
      await ctl("-m", "fast", "stop")
      running = false
    },
    restart: async () => {
      await ctl("-m", "fast", "-o", options, "restart")
      running = true
    },
    remove: async () => {
      if (running) await ctl("-m", "immediate", "stop").catch(() => undefined)
      rmSync(dir, { recursive: true, force: true })
    }
  }
  await handle.start()
  return handle
}
