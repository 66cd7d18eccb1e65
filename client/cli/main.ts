#!/usr/bin/env node
import { COMMANDS } from "./commands.js"
import { runCli } from "./run-cli.js"

/**
 * `npx merchant-payments <command>`: the merchant's command line. Ctrl-C or SIGTERM aborts the
 * command's signal (a long-running command stops cleanly and exits 0); a second one stops at once.
 */
const controller = new AbortController()
const onSignal = (signal: NodeJS.Signals) => {
  if (controller.signal.aborted) process.exit(130)
  controller.abort(new Error(`stopped by ${signal}`))
}
process.on("SIGINT", onSignal)
process.on("SIGTERM", onSignal)

const code = await runCli(COMMANDS, {
  argv: process.argv.slice(2),
  env: process.env,
  signal: controller.signal,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr
})
// Let a piped stdout take what it was given before the process ends.
process.stdout.write("", () => process.exit(code))
