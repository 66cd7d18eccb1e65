import { constants } from "node:os"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { explainFailure } from "./startup-problems.js"

/**
 * A signal this soon after the one that began the stop is the same request seen twice: under
 * `npm start` a Ctrl-C reaches the whole foreground process group, so node gets the terminal's
 * SIGINT and npm forwards its own copy a moment later. A later one is a person insisting.
 */
export const ECHO_WINDOW_MS = 1_000

/** Exits once `text` is handed to the system: process.exit alone may drop what a pipe has not taken yet. */
const writeThenExit = (stream: NodeJS.WriteStream, text: string, code: number): void => {
  stream.write(text, () => process.exit(code))
}

/**
 * Runs the host's main effect as the process. Instead of NodeRuntime.runMain, whose handler is removed
 * at the first signal (so the forwarded copy killed node mid-shutdown, exit 130, WAL left behind):
 *
 * - SIGINT/SIGTERM interrupt the program: the server stops accepting, requests in flight finish,
 *   background jobs stop and the store closes; the log says `stopped` once, and the exit code is 0.
 * - A second signal within the echo window is ignored; a later one stops at once (128 + signal).
 * - A failure prints one line on stderr (no stack trace) and exits 1.
 */
export const runHost = (program: Effect.Effect<void, unknown>): void => {
  // The fiber alone holds no handle open; this keeps node alive until the program ends.
  const keepAlive = setInterval(() => undefined, 2 ** 31 - 1)
  const fiber = Effect.runFork(program)
  let stopRequestedAt: number | undefined

  const onSignal = (signal: NodeJS.Signals) => {
    const now = Date.now()
    if (stopRequestedAt === undefined) {
      stopRequestedAt = now
      fiber.unsafeInterruptAsFork(fiber.id())
      return
    }
    if (now - stopRequestedAt < ECHO_WINDOW_MS) return
    writeThenExit(process.stderr, `merchant-payments: ${signal} again: stopping at once, requests in flight are cut\n`, 128 + constants.signals[signal])
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)

  fiber.addObserver((exit) => {
    clearInterval(keepAlive)
    if (Exit.isSuccess(exit)) return writeThenExit(process.stdout, "", 0)
    // The server layer's own finalizer has logged `stopped` by now, once, in the configured format.
    if (Cause.isInterruptedOnly(exit.cause)) return writeThenExit(process.stdout, "", 0)
    writeThenExit(process.stderr, `merchant-payments: ${explainFailure(Cause.squash(exit.cause))}\n`, 1)
  })
}
