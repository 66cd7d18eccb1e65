/**
 * Standard output, one write per turn of the event loop rather than one per line: under load every
 * request's line was a write(2) of its own, a system call the answer's own write already pays for.
 * Lines written in one turn leave together once it ends (setImmediate), in order; what is still
 * pending when the process exits is written then (standard output to a file or a pipe is
 * synchronous on Linux, so an exit handler's write is not lost).
 */
let pending: Array<string> = []
let scheduled = false
let exitHooked = false

const flush = () => {
  scheduled = false
  if (pending.length === 0) return
  const text = pending.join("")
  pending = []
  process.stdout.write(text)
}

export const writeStdoutLine = (line: string): void => {
  pending.push(`${line}\n`)
  if (!exitHooked) {
    exitHooked = true
    process.once("exit", flush)
  }
  if (!scheduled) {
    scheduled = true
    setImmediate(flush)
  }
}
