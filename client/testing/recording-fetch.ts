import type { FetchFunction } from "../signed-transport.js"

/**
 * A fetch for the client that records every attempt and can stand in for the network on some of
 * them: "pass" sends the request to the real host, "hang" never answers (the attempt ends only
 * when its signal aborts), "lose-answer" lets the host act but drops its answer and then hangs
 * (a connection lost on the way back), a function answers in the host's place.
 */
export type Step = "pass" | "hang" | "lose-answer" | (() => Response)

export interface RecordedAttempt {
  readonly url: string
  readonly method: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly startedAt: number
  /** The status the client was given; undefined when the attempt got no answer. */
  status?: number
  retryAfter?: string | null
  /** What the host answered on a "lose-answer" attempt, which the client never saw. */
  lostAnswer?: string
  endedAt?: number
}

const hangUntilAborted = (signal: AbortSignal | null | undefined) =>
  new Promise<Response>((_, reject) => {
    if (signal === null || signal === undefined) return reject(new Error("a hanging attempt needs a signal to end it"))
    signal.addEventListener("abort", () => reject(signal.reason), { once: true })
  })

export const recordingFetch = (steps: ReadonlyArray<Step> = []) => {
  const plan = [...steps]
  const attempts: Array<RecordedAttempt> = []
  const fetchFunction: FetchFunction = async (url, init) => {
    const recorded: RecordedAttempt = {
      url,
      method: init.method ?? "GET",
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: typeof init.body === "string" ? init.body : "",
      startedAt: Date.now()
    }
    attempts.push(recorded)
    const step = plan.shift() ?? "pass"
    try {
      if (step === "lose-answer") {
        recorded.lostAnswer = await (await fetch(url, init)).text()
        return await hangUntilAborted(init.signal)
      }
      const response = step === "pass" ? await fetch(url, init) : step === "hang" ? await hangUntilAborted(init.signal) : step()
      recorded.status = response.status
      recorded.retryAfter = response.headers.get("retry-after")
      return response
    } finally {
      recorded.endedAt = Date.now()
    }
  }
  return { fetch: fetchFunction, attempts }
}

/** A 7.3 error body answered in the host's place, as a proxy or the service itself would. */
export const errorResponse = (status: number, errorCode: string, message: string, headers: Readonly<Record<string, string>> = {}) =>
  new Response(JSON.stringify({ success: false, message, error_code: errorCode, errors: {}, timestamp: new Date().toISOString() }), {
    status,
    headers: { "content-type": "application/json", ...headers }
  })
