import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

// One Node minimum, said once in the README and once in `engines`, and admitted by every package the
// lockfile installs: otherwise `npm install` greets a new user with EBADENGINE warnings (it printed 24
// for a docs renderer that wanted Node 22). npm decides those warnings with `semver`; so does this.
const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const semver = createRequire(import.meta.url)("semver") as { satisfies(version: string, range: string): boolean }
const readme = readFileSync(join(root, "README.md"), "utf8")
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { engines: { node: string } }
const lockfile = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as {
  packages: Record<string, { engines?: { node?: string }; os?: ReadonlyArray<string>; optional?: boolean }>
}

/** "Requires Node 20.19 or later" -> "20.19.0". */
const readmeMinimum = () => {
  const said = /Requires Node (\d+)\.(\d+) or later/.exec(readme)
  if (said === null) throw new Error("the README no longer says which Node it requires")
  return `${said[1]}.${said[2]}.0`
}

describe("the Node version the repository needs", () => {
  it("is the same in the README and in package.json engines", () => {
    expect(manifest.engines.node).toBe(`>=${readmeMinimum().replace(/\.0$/, "")}`)
  })

  it("is admitted by every package the lockfile installs, so npm install prints no EBADENGINE", () => {
    const minimum = readmeMinimum()
    const refusing = Object.entries(lockfile.packages)
      // Another platform's optional build (fsevents) is skipped by npm on this one, warning or not.
      .filter(([, entry]) => entry.os === undefined || entry.optional !== true)
      .filter(([, entry]) => entry.engines?.node !== undefined && !semver.satisfies(minimum, entry.engines.node))
      .map(([path, entry]) => `${path.replace(/^.*node_modules\//, "")} wants node ${entry.engines!.node}`)
    expect(refusing).toEqual([])
  })
})
