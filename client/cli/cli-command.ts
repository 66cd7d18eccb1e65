import type { MerchantClient } from "../merchant-client.js"
import type { Environment } from "../api-types.js"

/**
 * The shape every `npx merchant-payments <command>` takes, so the dispatcher (`main.ts`) lists,
 * documents and runs them alike. A command reads its flags from `args`, talks to the host through
 * `context.client()` (signed like any merchant call) and writes only through `context.out`, which
 * knows whether a person (TTY: colour, progress) or a script (`--json`: one JSON value per line) reads.
 */
export interface CliOutput {
  /** True for `--json`: `data` prints one JSON document per line and `line` prints nothing. */
  readonly json: boolean
  /** True when stdout is a terminal: colour and progress are allowed. */
  readonly tty: boolean
  /** One human line on stdout (ignored under `--json`). */
  readonly line: (text: string) => void
  /** One machine-readable value: a JSON line under `--json`, else nothing (commands print `line`s too). */
  readonly data: (value: unknown) => void
  /** A problem, on stderr, in both modes. */
  readonly problem: (text: string) => void
  /** Wraps text in an ANSI colour on a TTY without `--json` or NO_COLOR; the text as is otherwise. */
  readonly colour: (name: "green" | "red" | "yellow" | "dim" | "bold", text: string) => string
}

/** Where the host is and who is calling: the client's variables, overridden by flags. */
export interface CliSettings {
  /** PAYMENTS_URL or --base-url: the API's base, with any base path. */
  readonly baseUrl: string
  /** PAYMENTS_ENVIRONMENT or --environment; default sandbox. */
  readonly environment: Environment
  /** MERCHANT_KEY / --merchant-key, API_KEY / --api-key, CLIENT_SECRET / --client-secret. */
  readonly merchantKey: string
  readonly apiKey: string
  readonly clientSecret: string
  /** WEBHOOK_SECRET / --webhook-secret: only the commands that check deliveries need it. */
  readonly webhookSecret: string | undefined
}

export interface CliContext {
  readonly out: CliOutput
  /** The settings, read when first asked for: a command that needs no host (verify-signature) never fails on a missing key. */
  readonly settings: () => CliSettings
  /** A client built from `settings()`. */
  readonly client: () => MerchantClient
  /** Aborted on Ctrl-C / SIGTERM: long-running commands (listen, logs tail) stop cleanly and exit 0. */
  readonly signal: AbortSignal
  /** The process's standard input, for commands that read a pasted payload. */
  readonly stdin: NodeJS.ReadableStream
}

/** Exit codes, documented in `--help` and the README. */
export const ExitCode = {
  ok: 0,
  /** The command ran and what it checked failed (a signature that does not verify, a receiver that answered 5xx). */
  failed: 1,
  /** Bad flags or arguments: the usage line is printed. */
  usage: 2,
  /** A variable or flag the command needs is missing or invalid. */
  config: 3,
  /** The host could not be reached or refused the call (the API's message is printed). */
  host: 4
} as const
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode]

export interface CliCommand {
  /** As typed: `listen`, `trigger`, `logs tail`, `events list`, `verify-signature`. */
  readonly name: string
  readonly summary: string
  /** The usage line and flags, printed by `--help` and on a usage error. */
  readonly usage: string
  /** Runs with the arguments after the command's name; resolves to the exit code. Never throws for a user mistake. */
  readonly run: (context: CliContext, args: ReadonlyArray<string>) => Promise<ExitCode>
}
