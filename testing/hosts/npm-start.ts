/** `npm start` as a person runs it: npm, then node, in a process group of their own, as in a terminal. */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { answersHealthz, baseEnv, freePort, ROOT, sleep, waitFor } from "./child-hosts.js"

export interface Started {
  readonly url: string
  readonly child: ChildProcess
  readonly stdout: () => string
  readonly stderr: () => string
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>
  /** Signals the whole process group, as a terminal's Ctrl-C does. */
  readonly signalGroup: (signal: NodeJS.Signals) => void
  /** The node process npm started (the script `exec`s it, so it is npm's only child). */
  readonly nodePid: () => number
}

export const npmStart = async (env: Readonly<Record<string, string>>): Promise<Started> => {
  const port = await freePort()
  // detached: npm leads a new process group, so the group can be signalled like a terminal's foreground job.
  const child = spawn("npm", ["start"], {
    cwd: ROOT,
    detached: true,
    env: { ...baseEnv(), PORT: String(port), HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stdout = ""
  let stderr = ""
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")))
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
  let gone = false
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      gone = true
      resolve({ code, signal })
    })
  )
  const started: Started = {
    url: `http://127.0.0.1:${port}`,
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    signalGroup: (signal) => process.kill(-child.pid!, signal),
    nodePid: () => {
      const pids = execFileSync("ps", ["-o", "pid=", "--ppid", String(child.pid)], { encoding: "utf8" }).trim().split(/\s+/)
      // Never 0 or a guess: process.kill(0) would signal this test's own process group.
      if (pids.length !== 1 || !/^[1-9]\d*$/.test(pids[0]!)) throw new Error(`npm should have one child, node; ps found: ${pids.join(" ")}`)
      return Number(pids[0])
    }
  }
  await waitFor(`npm start to answer on port ${port}`, 120_000, async () => {
    if (gone) throw new Error(`npm start exited during start-up:\n${stdout}\n${stderr}`)
    return answersHealthz(started.url)
  }, 50)
  return started
}

/** Waits for the exit; after `ms`, kills the whole group so no test leaves a process behind. */
export const exitWithin = async (started: Started, ms: number) => {
  const status = await Promise.race([started.exited, sleep(ms).then(() => undefined)])
  if (status !== undefined) return status
  try {
    started.signalGroup("SIGKILL")
  } catch {
    // Already gone.
  }
  throw new Error(`npm start did not exit within ${ms} ms:\n${started.stdout()}\n${started.stderr()}`)
}
