import type { CliCommand } from "./cli-command.js"
import { eventsList } from "./commands/events-list.js"
import { eventsResend } from "./commands/events-resend.js"
import { listenCommand } from "./commands/listen.js"
import { logsTail } from "./commands/logs-tail.js"
import { trigger } from "./commands/trigger.js"
import { verifySignature } from "./commands/verify-signature.js"

/** Every command the CLI knows, in the order `--help` lists them: one import and one entry each. */
export const COMMANDS: ReadonlyArray<CliCommand> = [
  listenCommand,
  trigger,
  logsTail,
  eventsList,
  eventsResend,
  verifySignature
]
