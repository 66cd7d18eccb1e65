import type { CliCommand } from "./cli-command.js"
import { listenCommand } from "./commands/listen.js"

/** Every command the CLI knows, in the order `--help` lists them: one import and one entry each. */
export const COMMANDS: ReadonlyArray<CliCommand> = [
  listenCommand
]
