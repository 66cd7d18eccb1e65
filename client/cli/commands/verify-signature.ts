import { readFile } from "node:fs/promises"
import { STANDARD_TOLERANCE_SECONDS } from "../../../core/signing/standard-webhook-signature.js"
import { type CliCommand, type CliContext, ExitCode } from "../cli-command.js"
import { CliConfigProblem } from "../cli-settings.js"
import { commandArgs, wholeNumberFlag } from "./command-args.js"
import { type Diagnosis, diagnoseDelivery } from "./delivery-diagnosis.js"

const USAGE = `usage: merchant-payments verify-signature [--payload-file FILE] [--header "Name: value"]... [--headers-file FILE]
                                        [--secret WEBHOOK_SECRET] [--client-secret CLIENT_SECRET] [--tolerance SECONDS]
  Checks a webhook delivery you received, as the kit checks it: X-Signature (the body alone) and
  Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature), and says why it does not verify.
  --payload-file FILE  the body exactly as received (default: standard input)
  --header "N: v"      one header of the delivery; repeat for each
  --headers-file FILE  the delivery's headers, one "Name: value" a line (other lines are skipped)
  --secret S           the webhook secret (default --webhook-secret or WEBHOOK_SECRET): payment, subscription and account events
  --client-secret S    the client secret (default CLIENT_SECRET): refund events (spec 6.3)
  --tolerance SECONDS  how old webhook-timestamp may be (default ${STANDARD_TOLERANCE_SECONDS})
  No host is called: PAYMENTS_URL and the keys are not needed.
  exit codes: 0 verified, 1 not verified, 2 usage, 3 no secret given`

/** `Name: value` lines; a request line, a status line or a blank line has no header name and is skipped. */
export const parseHeaderLines = (lines: ReadonlyArray<string>): ReadonlyArray<readonly [string, string]> =>
  lines.flatMap((line) => {
    const match = /^([A-Za-z0-9!#$%&'*+.^_`|~-]+):[ \t]*(.*?)[ \t\r]*$/.exec(line)
    return match === null ? [] : [[match[1]!.toLowerCase(), match[2]!] as const]
  })

const readAll = async (stream: NodeJS.ReadableStream): Promise<Uint8Array> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk))
  return Buffer.concat(chunks)
}

const report = (context: CliContext, diagnosis: Diagnosis) => {
  const { out } = context
  out.data(diagnosis)
  for (const problem of diagnosis.problems) out.line(`${out.colour("red", "not verified")}: ${problem}`)
  if (diagnosis.kind !== undefined) {
    out.line(`event kind: ${diagnosis.kind}, X-Environment: ${diagnosis.environment ?? "(none)"}; body ${diagnosis.body.bytes} bytes, sha256 ${diagnosis.body.sha256}`)
  }
  for (const finding of diagnosis.findings) {
    out.line(`${out.colour("bold", finding.form)}: ${finding.verified ? out.colour("green", "verified") : out.colour("red", "not verified")}`)
    out.line(`  signed content: ${finding.signedContent}`)
    for (const why of finding.why) out.line(`  ${why}`)
  }
}

/** A secret among the settings, or undefined when it is not set (the host's settings are not needed). */
const secretSetting = (context: CliContext, name: "webhookSecret" | "clientSecret"): string | undefined => {
  try {
    const value = context.settings()[name]
    return value === undefined || value === "" ? undefined : value
  } catch (error) {
    if (error instanceof CliConfigProblem) return undefined
    throw error
  }
}

/** Builds the command over a clock, so tests judge timestamps without the machine's. */
export const verifySignatureCommand = (
  dependencies: { readonly nowSeconds: () => number } = { nowSeconds: () => Math.floor(Date.now() / 1000) }
): CliCommand => {
  const command: CliCommand = {
    name: "verify-signature",
    summary: "Check a received webhook delivery and say why it does or does not verify",
    usage: USAGE,
    run: async (context, args) => {
      const parsed = commandArgs(context, command, args, {
        "payload-file": { type: "string" },
        header: { type: "string", multiple: true },
        "headers-file": { type: "string" },
        secret: { type: "string" },
        tolerance: { type: "string" }
      })
      if (parsed === undefined) return ExitCode.usage
      const flags = parsed.values
      const usage = (problem: string) => {
        context.out.problem(`verify-signature: ${problem}`)
        context.out.problem(USAGE)
        return ExitCode.usage
      }
      const tolerance = wholeNumberFlag("tolerance", flags.tolerance, 0, 10 ** 9)
      if (typeof tolerance === "object") return usage(tolerance.problem)
      const given = (headers: ReadonlyArray<string>) => {
        const pairs = parseHeaderLines(headers)
        return pairs.length === headers.length ? pairs : undefined
      }
      const flagHeaders = given(flags.header ?? [])
      if (flagHeaders === undefined) return usage(`--header takes "Name: value".`)

      // --client-secret is the CLI's global flag: it reaches the command through the settings, as CLIENT_SECRET does.
      const webhookSecret = flags.secret !== undefined && flags.secret !== "" ? flags.secret : secretSetting(context, "webhookSecret")
      const clientSecret = secretSetting(context, "clientSecret")
      if (webhookSecret === undefined && clientSecret === undefined) {
        context.out.problem("verify-signature: no secret to check with: pass --secret (or set WEBHOOK_SECRET) and, for refund events, --client-secret (or CLIENT_SECRET).")
        return ExitCode.config
      }

      let fileHeaders: ReadonlyArray<readonly [string, string]> = []
      let rawBody: Uint8Array
      try {
        if (flags["headers-file"] !== undefined) fileHeaders = parseHeaderLines((await readFile(flags["headers-file"], "utf8")).split("\n"))
        if (flags["payload-file"] !== undefined) rawBody = await readFile(flags["payload-file"])
        else {
          if ((context.stdin as { isTTY?: boolean }).isTTY === true) context.out.problem("Paste the delivery's body exactly as received, then Ctrl-D:")
          rawBody = await readAll(context.stdin)
        }
      } catch (error) {
        return usage(`cannot read ${error instanceof Error && "path" in error ? String(error.path) : "the input"}: ${error instanceof Error ? error.message : String(error)}`)
      }

      const diagnosis = diagnoseDelivery({
        rawBody,
        // A --header given on the command line wins over the same header in the file.
        headers: new Map([...fileHeaders, ...flagHeaders]),
        webhookSecret,
        clientSecret,
        nowSeconds: dependencies.nowSeconds(),
        toleranceSeconds: tolerance ?? STANDARD_TOLERANCE_SECONDS,
        // A pasted delivery's environment is what is being asked about: X-Environment is shown, not required.
        expectedEnvironment: undefined
      })
      report(context, diagnosis)
      return diagnosis.verified ? ExitCode.ok : ExitCode.failed
    }
  }
  return command
}

export const verifySignature = verifySignatureCommand()
