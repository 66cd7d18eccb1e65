import { MerchantApiError, MerchantTransportError } from "../../client-errors.js"
import { TRIGGERABLE_EVENTS, UNTRIGGERABLE_EVENTS } from "../../../core/triggers/trigger-catalog.js"
import { type CliCommand, type CliContext, ExitCode } from "../cli-command.js"

const USAGE = `usage: merchant-payments trigger EVENT [--ipn-url URL] [--json]
       merchant-payments trigger --list
  Makes EVENT really happen in sandbox: creates the objects it is about and moves them through the
  same flows the API and the scheduler run, so the event is queued to your webhook endpoints.
  --ipn-url URL  also send the triggered payment's or subscription's events to URL (public https)
  --list         the events that can be triggered, and those that cannot with the reason
  exit codes: 0 triggered, 2 usage, 3 settings missing, 4 host refused (production, unknown event) or unreachable`

/** The words the command reads: an event, or --list, and an optional --ipn-url; --json is the dispatcher's and passes. */
const parse = (args: ReadonlyArray<string>): { readonly list: true } | { readonly event: string; readonly ipnUrl: string | undefined } | string => {
  const positionals: Array<string> = []
  let ipnUrl: string | undefined
  let list = false
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!
    if (arg === "--json") continue
    if (arg === "--list") list = true
    else if (arg === "--ipn-url" || arg.startsWith("--ipn-url=")) {
      const value = arg === "--ipn-url" ? args[++index] : arg.slice("--ipn-url=".length)
      if (value === undefined || value === "") return "--ipn-url needs a URL."
      ipnUrl = value
    } else if (arg.startsWith("-")) return `unknown flag ${arg}.`
    else positionals.push(arg)
  }
  if (list) return positionals.length === 0 && ipnUrl === undefined ? { list: true } : "--list takes nothing else."
  if (positionals.length !== 1) return positionals.length === 0 ? "name the event to trigger (see --list)." : "trigger one event at a time."
  return { event: positionals[0]!, ipnUrl }
}

const printList = (context: CliContext) => {
  context.out.data({ triggerable: TRIGGERABLE_EVENTS, not_triggerable: UNTRIGGERABLE_EVENTS })
  context.out.line(context.out.colour("bold", "Events that can be triggered:"))
  for (const event of TRIGGERABLE_EVENTS) context.out.line(`  ${event}`)
  context.out.line(context.out.colour("bold", "Events that cannot, and why:"))
  for (const [event, reason] of Object.entries(UNTRIGGERABLE_EVENTS)) context.out.line(`  ${event}: ${context.out.colour("dim", reason)}`)
}

/** A host's refusal with its message and each field's problem, or its silence; undefined for anything else (the dispatcher's). */
const hostProblem = (error: unknown): string | undefined => {
  if (error instanceof MerchantApiError) {
    const details = Object.values(error.errors).flat()
    return [`the host answered ${error.status}${error.errorCode === undefined ? "" : ` ${error.errorCode}`}: ${error.message}`, ...details].join("\n  ")
  }
  if (error instanceof MerchantTransportError) return error.message
  return undefined
}

export const trigger: CliCommand = {
  name: "trigger",
  summary: "Make a sandbox event happen (objects created and moved, the event queued)",
  usage: USAGE,
  run: async (context, args) => {
    const parsed = parse(args)
    if (typeof parsed === "string") {
      context.out.problem(`trigger: ${parsed}\n${USAGE}`)
      return ExitCode.usage
    }
    if ("list" in parsed) {
      printList(context)
      return ExitCode.ok
    }
    try {
      const body = parsed.ipnUrl === undefined ? { event: parsed.event } : { event: parsed.event, ipn_url: parsed.ipnUrl }
      const { data } = await context.client().request("triggerEvent", { body })
      context.out.data(data)
      context.out.line(`${context.out.colour("green", "triggered")} ${data.event}`)
      for (const object of data.objects) context.out.line(`  ${object.type.padEnd(12)} ${object.id}`)
      for (const event of data.events) context.out.line(`  ${context.out.colour("dim", "event")}        ${event.id}  ${event.type}`)
      if (data.events.length === 0) context.out.line(context.out.colour("yellow", "  no event was queued: add a webhook endpoint, or pass --ipn-url"))
      return ExitCode.ok
    } catch (error) {
      const problem = hostProblem(error)
      if (problem === undefined) throw error
      context.out.problem(`trigger: ${problem}`)
      return ExitCode.host
    }
  }
}
