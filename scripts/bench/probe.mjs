// Preloaded into every benchmarked server (`node --import <this file>`, kit, twin and hellos alike),
// so CPU and allocation are read from the server's own counters, never from the load side's clock.
// On SIGUSR2 it appends one JSON line to the file named by BENCH_PROBE_FILE: the process's CPU time
// so far (process.cpuUsage: user + system, every thread of the process) and the bytes allocated on
// the V8 heap so far. The bench signals it at the start and at the end of the measured window; the
// differences over the requests answered in between are "CPU µs per request" and "bytes allocated
// per request". Allocation is machine-independent: it counts what the code asks for, not how fast
// the machine serves it. Buffers' backing stores live outside the V8 heap and are not counted.
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
  let sequence = 0
  process.on("SIGUSR2", () => {
    const { user, system } = process.cpuUsage()
    appendFileSync(file, `${JSON.stringify({ sequence: (sequence += 1), cpuUserUs: user, cpuSystemUs: system, allocatedBytes: allocated() })}\n`)
  })
}
