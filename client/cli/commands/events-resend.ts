import { type CliCommand, ExitCode } from "../cli-command.js"
import { commandArgs } from "./command-args.js"
import { withHost } from "./host-call.js"

const USAGE = `usage: merchant-payments events resend EVENT_ID
  Sends one event again: the same event id (webhook-id) and body, a fresh budget of attempts, due now.
  exit codes: 0 queued, 2 usage, 3 settings missing, 4 host refused (unknown event, one being sent now) or unreachable`

export const eventsResend: CliCommand = {
  name: "events resend",
  summary: "Send one event again, with its own event id",
  usage: USAGE,
  run: async (context, args) => {
    const parsed = commandArgs(context, eventsResend, args, {}, { min: 1, max: 1 })
    if (parsed === undefined) return ExitCode.usage
    const eventId = parsed.positionals[0]!
    return withHost(context, "events resend", async () => {
      const event = await context.client().redeliverEvent(eventId)
      context.out.data(event)
      context.out.line(`${context.out.colour("green", "queued again")}: ${event.id} (${event.type}) to ${event.url}, status ${event.status}`)
      return ExitCode.ok
    })
  }
}
