import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ensureBuilt, runBuild } from "../../testing/hosts/build.js"
import { ROOT } from "../../testing/hosts/child-hosts.js"

/** Every file under `directory` with its modification time, by path. */
const mtimes = (directory: string): Map<string, number> => {
  const found = new Map<string, number>()
  for (const entry of readdirSync(directory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    found.set(relative(directory, path), statSync(path).mtimeMs)
  }
  return found
}

/**
 * `npm start` builds first; with an unchanged tree that build must do nothing (it took 9-12 s every
 * start), and a changed source must still be rebuilt. Run in a copy of the checkout, timestamps kept,
 * so the copy starts exactly as fresh as this checkout's dist and editing a source touches nothing here.
 */
describe("npm start's build step", () => {
  let copy = ""
  beforeAll(async () => {
    await ensureBuilt()
    copy = mkdtempSync(join(tmpdir(), "mp-start-build-"))
    // Everything the build reads: its configs, the top folders of what it includes (an included entry
    // file imports its neighbours), and what it wrote.
    const included: ReadonlyArray<string> = JSON.parse(readFileSync(join(ROOT, "tsconfig.build.json"), "utf8")).include
    const folders = [...new Set(included.map((entry) => entry.split("/")[0]!))]
    for (const name of ["package.json", "tsconfig.json", "tsconfig.build.json", "dist", ...folders]) {
      cpSync(join(ROOT, name), join(copy, name), { recursive: true, preserveTimestamps: true })
    }
    symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"))
  }, 200_000)

  afterAll(() => {
    if (copy !== "") rmSync(copy, { recursive: true, force: true })
  })

  it("runs the build script's command before serving (inline: a nested npm costs half a second)", () => {
    const scripts = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts
    expect(scripts.start).toBe(`${scripts.build} && exec node dist/hosts/standalone/main.js serve`)
  })

  it("writes nothing when no source changed, and rebuilds a changed source", () => {
    const before = mtimes(join(copy, "dist"))
    expect(before.size).toBeGreaterThan(100)
    const again = runBuild(copy)
    expect(again.status, again.output).toBe(0)
    expect(mtimes(join(copy, "dist"))).toEqual(before)

    appendFileSync(join(copy, "hosts", "standalone", "banner.ts"), "\nexport const freshnessProbe = 1\n")
    const changed = runBuild(copy)
    expect(changed.status, changed.output).toBe(0)
    expect(readFileSync(join(copy, "dist", "hosts", "standalone", "banner.js"), "utf8")).toContain("freshnessProbe = 1")
  }, 200_000)
})
