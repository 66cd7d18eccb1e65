import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Readable } from "node:stream"
import { describe, expect, it } from "vitest"
import { signWebhook } from "../../../core/signing/webhook-signature.js"
import { ExitCode } from "../cli-command.js"
import { COMMANDS } from "../commands.js"
import { runCli } from "../run-cli.js"

/** One invocation through the dispatcher, as `npx merchant-payments ...` runs it, output captured. */
const invoke = async (argv: ReadonlyArray<string>, env: NodeJS.ProcessEnv = {}) => {
  let stdout = ""
  let stderr = ""
  const code = await runCli(COMMANDS, {
    argv,
    env,
    signal: new AbortController().signal,
    stdin: Readable.from([]),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) }
  })
  return { code, stdout, stderr }
}

describe("the CLI tools through the dispatcher", () => {
  it("lists every command in --help and prints each one's usage", async () => {
    const help = await invoke(["--help"])
    for (const name of ["events list", "events resend", "logs tail", "verify-signature"]) expect(help.stdout).toContain(`  ${name}`)
    expect((await invoke(["logs", "tail", "--help"])).stdout).toContain("usage: merchant-payments logs tail")
    expect((await invoke(["events", "resend", "--help"])).stdout).toContain("usage: merchant-payments events resend EVENT_ID")
  })

  it("verify-signature needs no host: a refund event verified with the global --client-secret and nothing else set", async () => {
    const refund = `{"event":"payment.refunded","status":"refunded","trx_id":"TRX1"}`
    const dir = mkdtempSync(join(tmpdir(), "mp-cli-dispatch-"))
    writeFileSync(join(dir, "body.json"), refund)
    const checked = await invoke(["verify-signature", "--payload-file", join(dir, "body.json"), "--header", `X-Signature: ${signWebhook("cs_1", refund)}`, "--client-secret", "cs_1"])
    expect(checked.stderr).toBe("")
    expect(checked.code).toBe(ExitCode.ok)
    expect(checked.stdout).toContain("a refund event, signed with the client secret")
    const wrong = await invoke(["verify-signature", "--payload-file", join(dir, "body.json"), "--header", `X-Signature: ${signWebhook("cs_1", refund)}`], { CLIENT_SECRET: "cs_2" })
    expect(wrong.code).toBe(ExitCode.failed)
  })

  it("a host command without its settings exits 3 naming the variable", async () => {
    const missing = await invoke(["events", "list"], { PAYMENTS_URL: "http://127.0.0.1:1" })
    expect(missing.code).toBe(ExitCode.config)
    expect(missing.stderr).toContain("Set MERCHANT_KEY or pass --merchant-key.")
    expect((await invoke(["logs", "tail", "--status", "teapot"])).code).toBe(ExitCode.usage)
  })
})
