import { setTimeout as sleep } from "node:timers/promises"
import { signedHeaders, targetUrl } from "../../signed-transport.js"
import { type CliCommand, type CliContext, type CliSettings, ExitCode } from "../cli-command.js"
import { sseMessages } from "./sse-reader.js"

const USAGE = [
  "Usage: merchant-payments listen --forward-to <url> [--events <types>]",
  "",
  "Streams your events from the host (GET /api/v1/events/stream, signed with your keys) and POSTs each",
  "one to a local URL with exactly the body and headers a real delivery carries, so your receiver's",
  "signature checks run as in production. The host never contacts that URL; it may be localhost.",
  "",
  "  --forward-to <url>   where to POST each event, such as http://localhost:3000/webhooks",
  "  --events <types>     only these, comma-separated: payment.completed, payment.*, * (default all)",
  "",
  "Reconnects by itself (resuming after the last event received); Ctrl-C stops."
].join("\n")

interface StreamedEvent {
  readonly id: string
  readonly type: string
  readonly object_id: string
  readonly created_at: string
  readonly request: { readonly body: string; readonly headers: Readonly<Record<string, string>> }
}

/** How long a local receiver may take to answer one event. */
const FORWARD_TIMEOUT_MS = 10_000
const BACKOFF_MAX_MS = 30_000

const readFlags = (args: ReadonlyArray<string>): { forwardTo: URL; events: string | undefined } | string => {
  let forwardTo: string | undefined
  let events: string | undefined
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!
    const [name, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined]
    const value = inline ?? args[index + 1]
    if (name !== "--forward-to" && name !== "--events") return `Unknown argument: ${arg}.`
    if (value === undefined || value === "") return `${name} needs a value.`
    if (inline === undefined) index++
    if (name === "--forward-to") forwardTo = value
    else events = value
  }
  if (forwardTo === undefined) return "--forward-to is required."
  if (!URL.canParse(forwardTo) || !/^https?:$/.test(new URL(forwardTo).protocol)) return `--forward-to must be an http(s) URL, not "${forwardTo}".`
  return { forwardTo: new URL(forwardTo), events }
}

const time = () => new Date().toISOString().slice(11, 19)

/** POSTs one event to the local receiver as the host would deliver it; what came back, for the line. */
const forward = async (target: URL, event: StreamedEvent, signal: AbortSignal) => {
  const started = performance.now()
  try {
    const response = await fetch(target, {
      method: "POST",
      headers: event.request.headers,
      body: event.request.body,
      redirect: "manual",
      signal: AbortSignal.any([signal, AbortSignal.timeout(FORWARD_TIMEOUT_MS)])
    })
    await response.arrayBuffer()
    return { status: response.status, statusText: response.statusText, error: undefined, ms: Math.round(performance.now() - started) }
  } catch (error) {
    return { status: undefined, statusText: "", error: error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error), ms: Math.round(performance.now() - started) }
  }
}

type Connection =
  | { readonly kind: "ended" }
  | { readonly kind: "retry"; readonly afterMs: number | undefined; readonly reason: string }
  | { readonly kind: "refused"; readonly reason: string }

/** One connection to the stream, forwarding until it ends; where it stopped is kept in `cursor`. */
const connect = async (context: CliContext, settings: CliSettings, flags: { forwardTo: URL; events: string | undefined }, cursor: { last: string | undefined }, announce: () => void): Promise<Connection> => {
  const { out, signal } = context
  const url = targetUrl(settings.baseUrl, `/api/v1/events/stream${flags.events === undefined ? "" : `?types=${encodeURIComponent(flags.events)}`}`)
  let response: Response
  try {
    response = await fetch(url, {
      headers: {
        accept: "text/event-stream",
        ...signedHeaders(settings, "GET", `${url.pathname}${url.search}`, ""),
        ...(cursor.last === undefined ? {} : { "last-event-id": cursor.last })
      },
      signal
    })
  } catch (error) {
    if (signal.aborted) return { kind: "ended" }
    return { kind: "retry", afterMs: undefined, reason: `${url.origin} could not be reached (${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)})` }
  }
  if (response.status !== 200 || response.body === null) {
    const text = await response.text().catch(() => "")
    let message = text
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? text
    } catch {
      // Not the API's JSON: the text as it came.
    }
    const reason = `the host answered ${response.status}: ${message}`
    const retryAfter = Number(response.headers.get("retry-after"))
    // Too many streams, or the host busy: worth waiting for. Any other refusal (keys, flags) is not.
    if (response.status === 429 || response.status >= 500) return { kind: "retry", afterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined, reason }
    return { kind: "refused", reason }
  }
  announce()
  try {
    for await (const message of sseMessages(response.body)) {
      const event = JSON.parse(message.data) as StreamedEvent
      const result = await forward(flags.forwardTo, event, signal)
      cursor.last = message.id ?? cursor.last
      const outcome = result.status === undefined
        ? out.colour("red", `-> failed: ${result.error}`)
        : out.colour(result.status >= 200 && result.status < 300 ? "green" : "red", `-> ${result.status} ${result.statusText}`)
      out.line(`${out.colour("dim", time())}  ${event.type}  ${event.id}  ${outcome} (${result.ms} ms)`)
      out.data({
        sequence: message.id,
        id: event.id,
        type: event.type,
        object_id: event.object_id,
        created_at: event.created_at,
        forwarded_to: flags.forwardTo.href,
        status: result.status ?? null,
        error: result.error ?? null,
        duration_ms: result.ms
      })
    }
  } catch (error) {
    if (signal.aborted) return { kind: "ended" }
    return { kind: "retry", afterMs: undefined, reason: `the stream broke off (${error instanceof Error ? error.message : String(error)})` }
  }
  // The host ended the stream (its longest life, or it shut down): at once again, after the last event.
  return { kind: "retry", afterMs: 0, reason: "the host ended the stream" }
}

const run = async (context: CliContext, args: ReadonlyArray<string>): Promise<ExitCode> => {
  const flags = readFlags(args)
  if (typeof flags === "string") {
    context.out.problem(`${flags}\n\n${USAGE}`)
    return ExitCode.usage
  }
  // Copied so every setting is checked now (a missing one is exit 3), not later inside a retried connection.
  const settings = { ...context.settings() }
  const cursor: { last: string | undefined } = { last: undefined }
  let failures = 0
  let announced = false
  for (;;) {
    if (context.signal.aborted) return ExitCode.ok
    const connection = await connect(context, settings, flags, cursor, () => {
      failures = 0
      if (!announced) context.out.line(`Ready: forwarding ${settings.environment} events${flags.events === undefined ? "" : ` (${flags.events})`} to ${flags.forwardTo.href}. Ctrl-C stops.`)
      announced = true
    })
    if (context.signal.aborted) return ExitCode.ok
    if (connection.kind === "refused") {
      context.out.problem(`listen: ${connection.reason}`)
      return ExitCode.host
    }
    if (connection.kind === "ended") return ExitCode.ok
    failures++
    // Exponential from half a second, capped, with jitter; the host's Retry-After when it gave one.
    const backoff = Math.min(BACKOFF_MAX_MS, 500 * 2 ** Math.min(failures - 1, 6)) * (0.5 + Math.random() / 2)
    const wait = connection.afterMs ?? backoff
    if (connection.afterMs !== 0) context.out.problem(`listen: ${connection.reason}; reconnecting in ${Math.ceil(wait / 1000)} s`)
    try {
      await sleep(wait, undefined, { signal: context.signal })
    } catch {
      return ExitCode.ok
    }
  }
}

export const listenCommand: CliCommand = {
  name: "listen",
  summary: "forward your events to a local URL, signed as real deliveries",
  usage: USAGE,
  run
}
