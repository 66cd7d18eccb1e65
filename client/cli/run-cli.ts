import { createMerchantClient, type MerchantClient } from "../merchant-client.js"
import { MerchantApiError, MerchantTransportError } from "../client-errors.js"
import { type CliCommand, type CliContext, type CliSettings, ExitCode } from "./cli-command.js"
import { makeOutput, type OutputStreams } from "./cli-output.js"
import { CliConfigProblem, readSettings, SETTINGS, takeGlobalFlags } from "./cli-settings.js"

export const PROGRAM = "merchant-payments"

const GLOBAL_USAGE = [
  "Global flags (each overrides its variable):",
  ...Object.values(SETTINGS).map((setting) => `  ${`${setting.flag} <value>`.padEnd(26)}${setting.variable}`),
  `  ${"--json".padEnd(26)}one JSON value per line, for scripts`,
  `  ${"--help".padEnd(26)}this text, or a command's own`,
  "",
  "Exit codes: 0 ok, 1 what the command checked failed, 2 bad flags or arguments, 3 a missing or",
  "invalid setting, 4 the host could not be reached or refused the call."
]

export const usage = (commands: ReadonlyArray<CliCommand>): string =>
  [
    `Usage: ${PROGRAM} <command> [flags]`,
    "",
    "Commands:",
    ...commands.map((command) => `  ${command.name.padEnd(20)}${command.summary}`),
    "",
    ...GLOBAL_USAGE
  ].join("\n")

/** The command the arguments name: the longest name whose words open them (`logs tail` before `logs`). */
const findCommand = (commands: ReadonlyArray<CliCommand>, words: ReadonlyArray<string>) =>
  [...commands]
    .sort((a, b) => b.name.split(" ").length - a.name.split(" ").length)
    .find((command) => command.name.split(" ").every((word, index) => words[index] === word))

export interface CliProcess extends OutputStreams {
  readonly argv: ReadonlyArray<string>
  readonly env: NodeJS.ProcessEnv
  readonly signal: AbortSignal
  readonly stdin: NodeJS.ReadableStream
}

/** Runs one invocation; resolves to its exit code. Never throws. */
export const runCli = async (commands: ReadonlyArray<CliCommand>, process: CliProcess): Promise<ExitCode> => {
  const parsed = takeGlobalFlags(process.argv)
  const out = makeOutput("json" in parsed && parsed.json, process.env, process)
  if ("problem" in parsed) {
    out.problem(`${parsed.problem}\n\n${usage(commands)}`)
    return ExitCode.usage
  }
  const command = findCommand(commands, parsed.rest)
  if (command === undefined) {
    if (parsed.help) {
      process.stdout.write(`${usage(commands)}\n`)
      return ExitCode.ok
    }
    out.problem(`${parsed.rest[0] === undefined ? "No command given." : `Unknown command: ${parsed.rest[0]}.`}\n\n${usage(commands)}`)
    return ExitCode.usage
  }
  if (parsed.help) {
    process.stdout.write(`${command.usage}\n\n${GLOBAL_USAGE.join("\n")}\n`)
    return ExitCode.ok
  }
  let settings: CliSettings | undefined
  let client: MerchantClient | undefined
  const context: CliContext = {
    out,
    settings: () => (settings ??= readSettings(parsed.flags, process.env)),
    client: () => {
      const { webhookSecret, ...rest } = context.settings()
      return (client ??= createMerchantClient({ ...rest, ...(webhookSecret === undefined ? {} : { webhookSecret }) }))
    },
    signal: process.signal,
    stdin: process.stdin
  }
  try {
    return await command.run(context, parsed.rest.slice(command.name.split(" ").length))
  } catch (error) {
    if (error instanceof CliConfigProblem) {
      out.problem(error.message)
      return ExitCode.config
    }
    if (error instanceof MerchantApiError || error instanceof MerchantTransportError) {
      out.problem(error.message)
      return ExitCode.host
    }
    out.problem(`${PROGRAM} ${command.name}: ${error instanceof Error ? error.message : String(error)}`)
    return ExitCode.failed
  }
}
