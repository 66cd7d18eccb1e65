import { PassThrough } from "node:stream"
import { describe, expect, it } from "vitest"
import { ExitCode } from "./cli-command.js"
import { makeOutput } from "./cli-output.js"
import { COMMANDS } from "./commands.js"
import { runCli } from "./run-cli.js"

const run = async (argv: ReadonlyArray<string>, env: NodeJS.ProcessEnv = {}) => {
  let stdout = ""
  let stderr = ""
  const code = await runCli(COMMANDS, {
    argv,
    env,
    signal: new AbortController().signal,
    stdin: new PassThrough(),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) }
  })
  return { code, stdout, stderr }
}

describe("the merchant-payments dispatcher", () => {
  it("--help lists every command and the global flags, exit 0", async () => {
    const { code, stdout } = await run(["--help"])
    expect(code).toBe(ExitCode.ok)
    expect(stdout).toContain("listen")
    for (const flag of ["--json", "--base-url", "--environment", "--merchant-key", "--api-key", "--client-secret", "--webhook-secret"]) expect(stdout).toContain(flag)
  })

  it("an unknown command, or none, prints the usage and exits 2", async () => {
    const unknown = await run(["lisen"])
    expect(unknown.code).toBe(ExitCode.usage)
    expect(unknown.stderr).toMatch(/Unknown command: lisen\.[\s\S]*Usage: merchant-payments <command>/)
    expect((await run([])).code).toBe(ExitCode.usage)
  })

  it("a command's --help is its own usage", async () => {
    const { code, stdout } = await run(["listen", "--help"])
    expect(code).toBe(ExitCode.ok)
    expect(stdout).toContain("--forward-to <url>")
  })

  it("listen: a missing --forward-to is a usage error (2); a missing key is a config error (3) naming its variable and flag", async () => {
    expect((await run(["listen"])).code).toBe(ExitCode.usage)
    const missing = await run(["listen", "--forward-to", "http://localhost:3000/webhooks"], { PAYMENTS_URL: "http://127.0.0.1:1" })
    expect(missing.code).toBe(ExitCode.config)
    expect(missing.stderr).toContain("Set MERCHANT_KEY or pass --merchant-key.")
    const badEnvironment = await run(["listen", "--forward-to", "http://localhost:3000/webhooks", "--environment", "staging"], { PAYMENTS_URL: "http://127.0.0.1:1" })
    expect(badEnvironment.code).toBe(ExitCode.config)
  })
})

describe("CLI output", () => {
  const streams = (tty: boolean) => {
    const written: Array<string> = []
    return { written, streams: { stdout: { isTTY: tty, write: (text: string) => written.push(text) }, stderr: { write: (text: string) => written.push(text) } } }
  }

  it("colours only on a terminal, never under NO_COLOR or --json", () => {
    expect(makeOutput(false, {}, streams(true).streams).colour("green", "ok")).toBe("\u001b[32mok\u001b[0m")
    expect(makeOutput(false, { NO_COLOR: "1" }, streams(true).streams).colour("green", "ok")).toBe("ok")
    expect(makeOutput(false, {}, streams(false).streams).colour("green", "ok")).toBe("ok")
    expect(makeOutput(true, {}, streams(true).streams).colour("green", "ok")).toBe("ok")
  })

  it("--json prints data lines and no human lines", () => {
    const { streams: out, written } = streams(false)
    const json = makeOutput(true, {}, out)
    json.line("human")
    json.data({ a: 1 })
    expect(written).toEqual(['{"a":1}\n'])
  })
})
