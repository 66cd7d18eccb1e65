/** Built standalone hosts as child processes, and a receiver that records what they send. */
import { type ChildProcess, spawn } from "node:child_process"

import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import { createServer as createNetServer } from "node:net"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

export const ROOT = fileURLToPath(new URL("../..", import.meta.url))
export const MAIN = join("dist", "hosts", "standalone", "main.js")

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Polls `check` until it returns a value other than undefined; fails with `what` after `timeoutMs`. */
export const waitFor = async <A>(what: string, timeoutMs: number, check: () => A | undefined | Promise<A | undefined>, intervalMs = 50): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await sleep(intervalMs)
  }
}

/** True once `url` answers GET /healthz with 200; undefined while it does not (yet). */
export const answersHealthz = async (url: string): Promise<true | undefined> => {
  try {
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) })
    await response.arrayBuffer()
    return response.status === 200 ? true : undefined
  } catch {
    return undefined
  }
}

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createNetServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

// ---------------------------------------------------------------------------------------------
// The loopback webhook receiver

export interface Received {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly rawBody: Buffer
  readonly text: string
  /** What the receiver answered. */
  readonly answered: number
  readonly at: number
}

export const received: Array<Received> = []
/** Status codes to answer with, in order; 200 once it runs out. */
let answers: Array<number> = []
let receiver: Server | undefined
let receiverUrl = ""

export const startReceiver = () =>
  new Promise<void>((resolve, reject) => {
    const server = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const rawBody = Buffer.concat(chunks)
        const answered = answers.shift() ?? 200
        received.push({
          method: request.method ?? "",
          path: request.url ?? "",
          headers: request.headers,
          rawBody,
          text: rawBody.toString("utf8"),
          answered,
          at: Date.now()
        })
        response.writeHead(answered, { "content-type": "text/plain" }).end(answered === 200 ? "ok" : "try again")
      })
    })
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      if (typeof address !== "object" || address === null) return reject(new Error("receiver has no port"))
      receiver = server
      receiverUrl = `http://127.0.0.1:${address.port}`
      resolve()
    })
  })

export const resetReceiver = (statuses: Array<number>) => {
  received.length = 0
  answers = [...statuses]
}

export const describeReceived = () =>
  JSON.stringify(received.map((r) => ({ method: r.method, path: r.path, answered: r.answered, eventId: r.headers["x-event-id"] })))

// ---------------------------------------------------------------------------------------------
// Host processes

export interface Host {
  readonly url: string
  readonly child: ChildProcess
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>
  /** What the host printed so far (stdout and stderr, interleaved), for failure messages. */
  readonly output: () => string
}

export const running = new Set<Host>()

/** A bare environment: nothing from the caller's shell (DATABASE_URL, MASTER_KEY...) leaks in. */
export const baseEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {}
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG", "TZ", "SYSTEMROOT"]) {
    const value = process.env[name]
    if (value !== undefined) env[name] = value
  }
  return env
}

/** `extraEnv` may name a PORT, so a restarted host answers where the old one did, and a BASE_PATH. */
export const startHost = async (dataDir: string, extraEnv: Readonly<Record<string, string>>): Promise<Host> => {
  const port = extraEnv["PORT"] !== undefined ? Number(extraEnv["PORT"]) : await freePort()
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(),
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DEMO: "true",
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    ...extraEnv
  }
  const child = spawn(process.execPath, [MAIN, "serve"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-20_000)
  }
  child.stdout?.on("data", keep)
  child.stderr?.on("data", keep)
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }))
  })
  // Under BASE_PATH every route, /healthz included, is under it: the host's URL is its base URL.
  const host: Host = { url: `http://127.0.0.1:${port}${env["BASE_PATH"] ?? ""}`, child, exited, output: () => output }
  running.add(host)
  void exited.then(() => running.delete(host))

  let gone: { code: number | null; signal: NodeJS.Signals | null } | undefined
  void exited.then((status) => {
    gone = status
  })
  await waitFor(`the host on port ${port} to answer GET /healthz with 200`, 30_000, async () => {
    if (gone !== undefined) {
      throw new Error(`the host exited during start-up (code ${gone.code}, signal ${gone.signal}):\n${output}`)
    }
    return answersHealthz(host.url)
  }, 100)
  return host
}

export const waitExit = (host: Host, ms: number) =>
  Promise.race([host.exited, sleep(ms).then(() => undefined)])

/** SIGKILL: no shutdown hook, no flush, no lease release runs. */
export const crash = async (host: Host) => {
  host.child.kill("SIGKILL")
  const status = await waitExit(host, 10_000)
  if (status === undefined) throw new Error("the host did not exit within 10 s of SIGKILL")
  return status
}

/** SIGTERM, then SIGKILL if it has not gone after 5 s. Never throws. */
export const stop = async (host: Host) => {
  if (host.child.exitCode !== null || host.child.signalCode !== null) return
  host.child.kill("SIGTERM")
  if ((await waitExit(host, 5_000)) !== undefined) return
  host.child.kill("SIGKILL")
  await waitExit(host, 5_000)
}

export const stopAll = async () => {
  await Promise.all([...running].map(stop))
}

/** Last resort if the test process itself goes away: no host outlives it. */
export const killSurvivors = () => {
  for (const host of running) host.child.kill("SIGKILL")
}

// ---------------------------------------------------------------------------------------------
// Talking to a host

/** Closes the recording receiver, if it was started. */
export const stopReceiver = async (): Promise<void> => {
  if (receiver === undefined) return
  const closing = receiver
  await new Promise<void>((resolve) => {
    closing.close(() => resolve())
    closing.closeAllConnections()
  })
}

/** Where the recording receiver listens, once started. */
export const currentReceiverUrl = (): string => receiverUrl

/**
 * Runs one case's body with its hosts: on failure prints their output (the hosts' own words explain
 * most failures), and always stops them, so no case leaves a process behind.
 */
export const withHostReports = async (
  hosts: () => ReadonlyArray<readonly [string, Host | undefined]>,
  body: () => Promise<void>
): Promise<void> => {
  try {
    await body()
  } catch (error) {
    for (const [name, host] of hosts()) {
      if (host !== undefined) console.error(`--- host ${name} output ---\n${host.output()}`)
    }
    throw error
  } finally {
    await Promise.all(hosts().map(([, host]) => (host === undefined ? undefined : stop(host))))
  }
}
