// Preloaded into every benchmarked server (`node --import <this file>`, kit, twin and hellos alike),
// so CPU and allocation are read from the server's own counters, never from the load side's clock.
// On SIGUSR2 it appends one JSON line to the file named by BENCH_PROBE_FILE: the process's CPU time
// so far (process.cpuUsage: user + system, every thread of the process), the bytes allocated on the
// V8 heap so far, and the HTTP responses it has finished so far (node:http's diagnostics channel, so
// any server on node:http counts alike). The bench signals it at the start and at the end of the
// measured window; the differences, CPU and bytes over responses, are "CPU µs per request" and
// "bytes allocated per request". All three are read in the same instant of the server's own event
// loop, so a signal answered late (a starved server runs its handler only on its next turn) moves
// the window but never mismatches work and responses. Allocation is machine-independent: it counts what the code asks for, not how fast
// the machine serves it. Buffers' backing stores live outside the V8 heap and are not counted.
import { subscribe } from "node:diagnostics_channel"
import { appendFileSync } from "node:fs"
import { GCProfiler, getHeapStatistics } from "node:v8"

/**
 * Bytes allocated on the V8 heap since `startAllocationCounter()`: what the heap holds now more than
 * then, plus everything every garbage collection since has freed (used before it minus used after).
 * The GC profiler hands its records over only when stopped, so each read stops it and starts a new one.
 */
export const startAllocationCounter = () => {
  const usedAtStart = getHeapStatistics().used_heap_size
  let freed = 0
  let profiler = new GCProfiler()
  profiler.start()
  return () => {
    const usedNow = getHeapStatistics().used_heap_size
    const data = profiler.stop()
    profiler = new GCProfiler()
    profiler.start()
    for (const gc of data?.statistics ?? []) freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize
    return freed + usedNow - usedAtStart
  }
}

/** CPU time of the whole process so far, µs. */
export const cpuMicros = () => {
  const { user, system } = process.cpuUsage()
  return user + system
}

const file = process.env["BENCH_PROBE_FILE"]
if (file !== undefined && file !== "") {
  const allocated = startAllocationCounter()
  let responses = 0
  subscribe("http.server.response.finish", () => {
    responses += 1
  })
  let sequence = 0
  process.on("SIGUSR2", () => {
    const { user, system } = process.cpuUsage()
    // Monotonic and machine-wide (CLOCK_MONOTONIC), so the bench can compare it with its own clock.
    const atMs = Number(process.hrtime.bigint() / 1000n) / 1000
    const line = { sequence: (sequence += 1), atMs, cpuUserUs: user, cpuSystemUs: system, allocatedBytes: allocated(), responses }
    appendFileSync(file, `${JSON.stringify(line)}\n`)
  })
}
