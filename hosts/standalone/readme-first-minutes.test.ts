// The README's "First five minutes", run as a newcomer pastes it: each ```sh block of the section in
// its turn, in a shell of its own at the root of the checkout, on ports this test chose (so no block may
// assume 8080). The host is `npm start` itself (it builds, as a newcomer's start does); the later
// blocks run after the `export` lines it printed, with nothing else of this process's environment.
// Every block of the section runs: a block added without a step here fails the count below.
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort, ROOT, waitFor } from "../../testing/hosts/child-hosts.js"

const HEADING = "## First five minutes"

/** The section's fenced `sh` blocks, in order, exactly as a reader copies them. */
const sectionBlocks = () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8")
  const at = readme.indexOf(HEADING)
  if (at === -1) throw new Error(`the README has no "${HEADING}"`)
  const section = readme.slice(at, readme.indexOf("\n## ", at + HEADING.length))
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!)
}

/** A pasted block left running (the host, the listener), with what it printed so far. */
interface Running {
  readonly child: ChildProcess
  readonly stdout: () => string
  readonly stderr: () => string
}

const running: Array<Running> = []
const dataDir = mkdtempSync(join(tmpdir(), "mp-first-minutes-"))

/** A shell's environment as a fresh terminal has it: PATH and HOME, and what the step sets. */
const terminal = (env: Readonly<Record<string, string>>) => ({ PATH: process.env["PATH"]!, HOME: process.env["HOME"]!, ...env })

/** Starts a block that keeps running, in a process group of its own so that all of it is stopped after. */
const startBlock = (script: string, env: Readonly<Record<string, string>>): Running => {
  const child = spawn("bash", ["-c", script], { cwd: ROOT, env: terminal(env), stdio: ["ignore", "pipe", "pipe"], detached: true })
  let stdout = ""
  let stderr = ""
  child.stdout!.on("data", (chunk) => (stdout += chunk))
  child.stderr!.on("data", (chunk) => (stderr += chunk))
  const started = { child, stdout: () => stdout, stderr: () => stderr }
  running.push(started)
  return started
}

/** Runs a block to its end; its output, or the failure with what it printed. */
const runBlock = (script: string, env: Readonly<Record<string, string>>) =>
  new Promise<string>((resolve, reject) =>
    execFile("bash", ["-c", script], { cwd: ROOT, env: terminal(env), timeout: 60_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout)))

afterAll(async () => {
  for (const { child } of running.reverse()) {
    if (child.exitCode !== null || child.pid === undefined) continue
    const exited = new Promise((resolve) => child.once("exit", resolve))
    process.kill(-child.pid, "SIGTERM")
    await exited
  }
  rmSync(dataDir, { recursive: true, force: true })
})

/** The CLI the listen step runs (`npx merchant-payments`): the package's own bin, once it ships one. */
const hasCli = "merchant-payments" in ((JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { bin?: Record<string, string> }).bin ?? {})
if (!hasCli) console.warn("README first-five-minutes listen step SKIPPED: package.json has no merchant-payments bin yet")

describe("README: first five minutes", () => {
  const blocks = sectionBlocks()
  const [start, signedCall, listen, pay] = blocks as [string, string, string, string]
  let exports = ""

  beforeAll(async () => {
    const hostPort = await freePort()
    const host = startBlock(start, { PORT: String(hostPort), DATA_DIR: dataDir })
    // The first start builds the whole tree before it serves.
    await waitFor("the host's export lines", 180_000, () => {
      if (host.child.exitCode !== null) throw new Error(`npm start exited ${host.child.exitCode}:\n${host.stdout()}\n${host.stderr()}`)
      return host.stdout().includes("export WEBHOOK_SECRET=") ? true : undefined
    }, 200)
    exports = host.stdout().split("\n").filter((line) => line.trimStart().startsWith("export ")).join("\n")
    expect(exports).toContain(`export PAYMENTS_URL='http://localhost:${hostPort}'`)
  }, 200_000)

  it("has the four steps this test runs: npm start, a signed call, listen, a payment", () => {
    expect(blocks).toHaveLength(4)
    expect(start).toContain("npm start")
    expect(listen).toContain("npx merchant-payments listen --forward-to http://localhost:$PORT/webhooks")
    for (const block of blocks) expect(block, "a port is read from the environment, never written").not.toMatch(/:8080|localhost:\d/)
  })

  it("after npm start's export lines: the signed call answers and the sandbox payment is paid", async () => {
    expect(await runBlock(`${exports}\n${signedCall}`, {})).toMatch(/^signed call answered: .+, API 1\.0$/m)
    expect(await runBlock(`${exports}\n${pay}`, {})).toMatch(/^paid SANDBOX_\S+$/m)
  }, 120_000)

  it.skipIf(!hasCli)("the payment's webhook reaches the local receiver through listen, its signature checked", async () => {
    const receiverPort = await freePort()
    const listening = startBlock(`${exports}\n${listen}`, { PORT: String(receiverPort) })
    // Paid again until listen, started a moment ago, forwards one (it may begin after the first payment).
    await waitFor("a forwarded payment.completed", 60_000, async () => {
      if (listening.child.exitCode !== null) throw new Error(`listen exited ${listening.child.exitCode}:\n${listening.stdout()}\n${listening.stderr()}`)
      if (/^received payment\.completed for first-\d+$/m.test(listening.stdout())) return true
      await runBlock(`${exports}\n${pay}`, {})
      return undefined
    }, 2_000)
    expect(listening.stdout()).not.toContain("refused:")
  }, 120_000)
})
