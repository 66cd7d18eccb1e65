import { spawn } from "node:child_process"
import { expect } from "vitest"
import { baseEnv, MAIN, ROOT } from "./child-hosts.js"

/** Runs the built host with `env` until it exits (it must, within 60 s): its code and both outputs. */
export const runHost = (env: Readonly<Record<string, string>>, command = "serve") =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, command], {
      cwd: ROOT,
      env: { ...baseEnv(), HOST: "127.0.0.1", PORT: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`the host did not exit within 60 s:\n${stdout}\n${stderr}`))
    }, 60_000)
    child.once("exit", (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })

/** Exit 1 and exactly one line on stderr, with no stack trace anywhere; returns the line. */
export const expectOneLine = async (env: Readonly<Record<string, string>>, command = "serve"): Promise<string> => {
  const run = await runHost(env, command)
  const lines = run.stderr.split("\n").filter((line) => line.trim() !== "")
  expect(run.code, run.stderr).toBe(1)
  expect(lines, run.stderr).toHaveLength(1)
  expect(run.stdout + run.stderr).not.toMatch(/^\s+at /m)
  expect(lines[0]).toMatch(/^merchant-payments: /)
  return lines[0]!
}
