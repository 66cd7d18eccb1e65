import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll } from "vitest"
import { ensureBuilt } from "./build.js"
import { killSurvivors, startReceiver, stopAll, stopReceiver } from "./child-hosts.js"

/**
 * The hooks every suite over built hosts in child processes needs: the build, a scratch directory,
 * the loopback webhook receiver (unless told not to), and on the way out every host stopped (and
 * killed if the test process itself goes away), the receiver closed, the scratch removed. Register
 * it first in the `describe`; the suite's own hooks run after it. Returns the scratch directory.
 */
export const childHostSuite = (prefix: string, options: { readonly receiver?: boolean } = {}): (() => string) => {
  const receiver = options.receiver !== false
  let scratch = ""
  beforeAll(async () => {
    process.on("exit", killSurvivors)
    await ensureBuilt()
    scratch = mkdtempSync(join(tmpdir(), prefix))
    if (receiver) await startReceiver()
  }, 200_000)
  afterAll(async () => {
    await stopAll()
    process.off("exit", killSurvivors)
    if (receiver) await stopReceiver()
    if (scratch !== "") rmSync(scratch, { recursive: true, force: true })
  }, 30_000)
  return () => scratch
}
