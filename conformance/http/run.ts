import { existsSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { startVitest } from "vitest/node"

/**
 * `npm run conformance -- --base-url URL --admin-token TOKEN`: runs the black-box HTTP conformance
 * suite (remote.test.ts) against a host that is already running, and exits non-zero unless every
 * case passed. Node 20 cannot run TypeScript, so the package script compiles this one file first
 * (conformance/http/tsconfig.run.json, into dist/conformance-http) and runs it; vitest then loads
 * the suite itself from source. It imports nothing from the kit, so no full build is needed.
 */

const USAGE = `usage: npm run conformance -- --base-url URL --admin-token TOKEN
  --base-url URL        where the host listens, e.g. http://127.0.0.1:8080
  --admin-token TOKEN   its admin bearer token (ADMIN_TOKEN, or ./data/admin.token for a quickstart)
  --filter PATTERN      run only the cases whose full name matches PATTERN (a regular expression)
  (CONFORMANCE_BASE_URL and CONFORMANCE_ADMIN_TOKEN are read when the flags are absent)
The suite creates merchants on the host and changes its settings while it runs (putting them back):
point it at a test host, never at production.`

const SUITE = join("conformance", "http", "remote.test.ts")

const option = (args: ReadonlyArray<string>, name: string): string | undefined => {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === `--${name}`) return args[i + 1]
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3)
  }
  return undefined
}

/** The repository root: the nearest directory above this file holding the suite's source. */
const repositoryRoot = (): string => {
  let directory = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(directory, SUITE))) {
    const parent = dirname(directory)
    if (parent === directory) throw new Error(`cannot find ${SUITE} above ${fileURLToPath(import.meta.url)}`)
    directory = parent
  }
  return directory
}

const fail = (message: string): never => {
  console.error(`conformance: ${message}\n\n${USAGE}`)
  process.exit(2)
}

const main = async () => {
  const args = process.argv.slice(2)
  if (args.includes("--help") || args.includes("-h")) {
    console.log(USAGE)
    return 0
  }
  const baseUrl = option(args, "base-url") ?? process.env["CONFORMANCE_BASE_URL"]
  const adminToken = option(args, "admin-token") ?? process.env["CONFORMANCE_ADMIN_TOKEN"]
  if (baseUrl === undefined || baseUrl === "") return fail("--base-url is required")
  if (adminToken === undefined || adminToken === "") return fail("--admin-token is required")
  if (!/^https?:\/\/[^/]/.test(baseUrl) || !URL.canParse(baseUrl)) return fail(`--base-url must be an http(s) URL, got "${baseUrl}"`)

  // The suite file reads these; vitest's workers inherit this process's environment.
  process.env["CONFORMANCE_BASE_URL"] = baseUrl
  process.env["CONFORMANCE_ADMIN_TOKEN"] = adminToken

  const root = repositoryRoot()
  const filter = option(args, "filter")
  const vitest = await startVitest("test", [resolve(root, SUITE)], {
    root,
    run: true,
    watch: false,
    ...(filter !== undefined ? { testNamePattern: filter } : {})
  })
  const files = vitest.state.getFiles()
  const ran = files.some((file) => file.filepath.endsWith("remote.test.ts"))
  const failed = vitest.state.getCountOfFailedTests() > 0 || files.some((file) => file.result?.state === "fail")
  await vitest.close()
  if (!ran) {
    console.error(`conformance: ${SUITE} did not run`)
    return 1
  }
  return failed || (process.exitCode !== undefined && process.exitCode !== 0) ? 1 : 0
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  }
)
