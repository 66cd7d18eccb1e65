import { execFile } from "node:child_process"
import { cpSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..")
const run = promisify(execFile)

/**
 * The package as `npm pack` makes it (so `files` and `exports` are what is tested), built into a stage
 * of its own under `scratch` (other tests may be building ./dist at the same moment): the host's
 * build, then the exported suites' own, as prepack does. Returns the tarball's path.
 */
export const packPackage = async (scratch: string): Promise<string> => {
  const stage = join(scratch, "stage")
  for (const config of ["tsconfig.build.json", "tsconfig.conformance.json"]) {
    await run(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, config), "--outDir", join(stage, "dist")])
  }
  for (const file of ["package.json", "README.md", "LICENSE"]) cpSync(join(root, file), join(stage, file))
  const { stdout } = await run("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", scratch], { cwd: stage })
  return join(scratch, stdout.trim().split("\n").pop()!)
}
