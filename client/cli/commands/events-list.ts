import type { Event } from "../../event-types.js"
import { type CliCommand, ExitCode } from "../cli-command.js"
import { commandArgs, wholeNumberFlag } from "./command-args.js"
import { withHost } from "./host-call.js"
import { textTable } from "./text-table.js"

const USAGE = `usage: merchant-payments events list [--type TYPE] [--limit N] [--cursor CURSOR]
  Your events in the environment's credentials, newest first, with where each delivery stands.
  --type TYPE      only events of this type, such as payment.completed
  --limit N        1 to 100 (the service's default is 20)
  --cursor CURSOR  the next page, as the previous page's last line names it
  --json prints one event a line. exit codes: 0 listed, 2 usage, 3 settings missing, 4 host refused or unreachable`

const lastResult = (event: Event) =>
  event.last_status_code !== null ? `HTTP ${event.last_status_code}` : event.last_error ?? ""

export const eventsList: CliCommand = {
  name: "events list",
  summary: "List your events, newest first, with their delivery status",
  usage: USAGE,
  run: async (context, args) => {
    const parsed = commandArgs(context, eventsList, args, { type: { type: "string" }, limit: { type: "string" }, cursor: { type: "string" } })
    if (parsed === undefined) return ExitCode.usage
    const limit = wholeNumberFlag("limit", parsed.values.limit, 1, 100)
    if (typeof limit === "object") {
      context.out.problem(`events list: ${limit.problem}`)
      context.out.problem(USAGE)
      return ExitCode.usage
    }
    return withHost(context, "events list", async () => {
      const { out } = context
      const page = await context.client().listEvents({
        ...(parsed.values.type !== undefined ? { type: parsed.values.type } : {}),
        ...(limit !== undefined ? { limit } : {}),
        ...(parsed.values.cursor !== undefined ? { cursor: parsed.values.cursor } : {})
      })
      for (const event of page.data) out.data(event)
      if (page.data.length === 0) out.line("No events.")
      else {
        const rows = page.data.map((event) => [event.created_at, event.id, event.type, event.status, String(event.attempts), lastResult(event)])
        const [heading, ...lines] = textTable([["CREATED", "ID", "TYPE", "STATUS", "ATTEMPTS", "LAST RESULT"], ...rows])
        out.line(out.colour("bold", heading!))
        lines.forEach((line, index) => out.line(page.data[index]!.status === "failed" ? out.colour("red", line) : line))
      }
      for (const paused of page.paused_targets) {
        out.line(out.colour("yellow", `paused: ${paused.target} failing since ${paused.failing_since}; its events wait until recovered`))
      }
      if (page.has_more && page.next_cursor !== null) out.line(out.colour("dim", `more: events list --cursor ${page.next_cursor}`))
      return ExitCode.ok
    })
  }
}
