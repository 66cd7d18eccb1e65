/** Building the standalone host for tests that run it as a real process (`npm run build`, as `npm start` does). */
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { mkdirSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ROOT, sleep } from "./child-hosts.js"

export interface BuildRun {
  readonly status: number | null
  readonly output: string
}

/** `npm run build --silent` in `cwd`; never throws. */
export const runBuild = (cwd: string): BuildRun => {
  const build = spawnSync("npm", ["run", "build", "--silent"], { cwd, encoding: "utf8", timeout: 170_000 })
  const failure = build.error === undefined ? "" : `${build.error.message}\n`
  return { status: build.status, output: `${failure}${build.stdout}${build.stderr}` }
}

/*
 * Test files run in parallel workers, and two builds writing one dist at once could let a host load a
 * half-written file: builds of this checkout take turns through a lock directory (mkdir is atomic).
 */
const lock = join(tmpdir(), `merchant-payments-build-${createHash("sha256").update(ROOT).digest("hex").slice(0, 12)}.lock`)
const STALE_LOCK_MS = 180_000

const acquire = async () => {
  for (;;) {
    try {
      mkdirSync(lock)
      return
    } catch {
      // A lock left by a killed test run would block every later one.
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true })
      } catch {
        // Released meanwhile: try again.
      }
      await sleep(200)
    }
  }
}

/** Brings this checkout's dist up to date (a no-op when it already is); throws with tsc's output on failure. */
export const ensureBuilt = async (): Promise<void> => {
  await acquire()
  try {
    const build = runBuild(ROOT)
    if (build.status !== 0) throw new Error(`npm run build failed (status ${build.status}):\n${build.output}`)
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}
