import type { QueryOf, ResponseOf } from "../../api-types.js"
import type { MerchantClient } from "../../merchant-client.js"
import { type CliCommand, type CliContext, ExitCode } from "../cli-command.js"
import { commandArgs, wholeNumberFlag } from "./command-args.js"
import { hostProblem, withHost } from "./host-call.js"
import { type RequestLogEntry, requestLogLines } from "./request-log-lines.js"

const USAGE = `usage: merchant-payments logs tail [--status 4xx|401|...] [--path PREFIX] [--limit N]
  Your recent API calls, then each new one as it is answered, until Ctrl-C.
  --status S     only calls answered S: a status (401) or a class (4xx)
  --path PREFIX  only calls to paths starting with PREFIX, such as /api/v1/initiate-payment
  --limit N      how many recent calls to show first, 1 to 100 (default 20)
  --json prints one call a line. exit codes: 0 stopped with Ctrl-C, 2 usage, 3 settings missing, 4 host refused or unreachable at start`

type LogQuery = NonNullable<QueryOf<"listRequestLogs">>
type LogPage = ResponseOf<"listRequestLogs">

/** The host's request log, one page, newest first. */
const readPage = (client: MerchantClient, query: LogQuery, signal: AbortSignal): Promise<LogPage> =>
  client.request("listRequestLogs", { query }, { signal })

/** Waits `ms`, or less when the signal aborts. */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener("abort", done)
      resolve()
    }
    signal.addEventListener("abort", done, { once: true })
  })

/**
 * What has been printed: the newest time seen and the ids seen at or after it. Polls ask from that
 * time, so a call logged in the same instant as the last one printed comes back and is skipped by id.
 */
const printedCalls = () => {
  let newest: string | undefined
  let seen = new Map<string, string>()
  return {
    get newest() {
      return newest
    },
    /** The calls not printed yet, oldest first, and marks them printed. */
    fresh: (newestFirst: ReadonlyArray<RequestLogEntry>) => {
      const fresh = [...newestFirst].reverse().filter((entry) => !seen.has(entry.id))
      for (const entry of fresh) {
        seen.set(entry.id, entry.created_at)
        if (newest === undefined || entry.created_at > newest) newest = entry.created_at
      }
      const from = newest
      if (from !== undefined) seen = new Map([...seen].filter(([, createdAt]) => createdAt >= from))
      return fresh
    }
  }
}

const STATUS = /^(?:[1-5]\d\d|[1-5]xx)$/

export const logsTailCommand = (timing: { readonly intervalMs: number } = { intervalMs: 1000 }): CliCommand => {
  const command: CliCommand = {
    name: "logs tail",
    summary: "Show your recent API calls and follow new ones, with why a refused one was refused",
    usage: USAGE,
    run: async (context, args) => {
      const parsed = commandArgs(context, command, args, { status: { type: "string" }, path: { type: "string" }, limit: { type: "string" } })
      if (parsed === undefined) return ExitCode.usage
      const { status, path } = parsed.values
      const limit = wholeNumberFlag("limit", parsed.values.limit, 1, 100)
      const usage = (problem: string) => {
        context.out.problem(`logs tail: ${problem}`)
        context.out.problem(USAGE)
        return ExitCode.usage
      }
      if (typeof limit === "object") return usage(limit.problem)
      if (status !== undefined && !STATUS.test(status.toLowerCase())) return usage("--status takes a status such as 401 or a class such as 4xx.")
      const filters = { ...(status !== undefined ? { status: status.toLowerCase() } : {}), ...(path !== undefined ? { path } : {}) }
      return withHost(context, "logs tail", async () => {
        const client = context.client()
        const printed = printedCalls()
        const show = (entries: ReadonlyArray<RequestLogEntry>) => {
          for (const entry of printed.fresh(entries)) {
            context.out.data(entry)
            for (const line of requestLogLines(context.out, entry)) context.out.line(line)
          }
        }
        try {
          show((await readPage(client, { ...filters, limit: limit ?? 20 }, context.signal)).data)
        } catch (error) {
          if (context.signal.aborted) return ExitCode.ok
          throw error
        }
        if (context.out.tty) context.out.problem(context.out.colour("dim", "Following new calls; Ctrl-C to stop."))
        await follow(context, timing.intervalMs, (query) => readPage(client, { ...filters, ...query }, context.signal), printed, show)
        return ExitCode.ok
      })
    }
  }
  return command
}

/** Polls from the newest call printed until Ctrl-C; a host that stops answering is said once, and polled on. */
const follow = async (
  context: CliContext,
  intervalMs: number,
  read: (query: LogQuery) => Promise<LogPage>,
  printed: ReturnType<typeof printedCalls>,
  show: (entries: ReadonlyArray<RequestLogEntry>) => void
) => {
  let failing = false
  while (!context.signal.aborted) {
    await pause(intervalMs, context.signal)
    if (context.signal.aborted) return
    try {
      const entries: Array<RequestLogEntry> = []
      let cursor: string | undefined
      do {
        const from = printed.newest
        const page = await read({ limit: 100, ...(from !== undefined ? { from } : {}), ...(cursor !== undefined ? { cursor } : {}) })
        entries.push(...page.data)
        cursor = page.has_more && page.next_cursor !== null ? page.next_cursor : undefined
      } while (cursor !== undefined)
      show(entries)
      if (failing) context.out.problem("logs tail: the host answers again.")
      failing = false
    } catch (error) {
      if (context.signal.aborted) return
      const problem = hostProblem(error)
      if (problem === undefined) throw error
      if (!failing) context.out.problem(`logs tail: ${problem} Still trying.`)
      failing = true
    }
  }
}

export const logsTail = logsTailCommand()
