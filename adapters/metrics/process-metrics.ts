import { monitorEventLoopDelay } from "node:perf_hooks"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"

/**
 * The Node process figures an on-call engineer reads first, under the names Prometheus' Node client
 * made familiar. Sampled when scraped, so they cost nothing in between; event-loop lag is measured
 * by Node's own monitor and told for the time since the previous scrape.
 */
const residentMemory = Metric.gauge("process_resident_memory_bytes", { description: "Resident memory size in bytes" })
const heapUsed = Metric.gauge("nodejs_heap_size_used_bytes", { description: "V8 heap in use, in bytes" })
const heapTotal = Metric.gauge("nodejs_heap_size_total_bytes", { description: "V8 heap allocated, in bytes" })
const externalMemory = Metric.gauge("nodejs_external_memory_bytes", { description: "Memory of C++ objects bound to JavaScript, in bytes" })
const loopLagMean = Metric.gauge("nodejs_eventloop_lag_mean_seconds", { description: "Mean event-loop delay since the previous scrape" })
const loopLagP99 = Metric.gauge("nodejs_eventloop_lag_p99_seconds", { description: "99th percentile event-loop delay since the previous scrape" })
const startTime = Metric.gauge("process_start_time_seconds", { description: "When the process started, in Unix seconds" })

export class ProcessMetrics extends Context.Tag("merchant-payments/ProcessMetrics")<ProcessMetrics, {
  readonly sample: Effect.Effect<void>
}>() {}

const NANOS_PER_SECOND = 1e9

/** The event-loop monitor runs while the kit does, and stops with it. */
export const layer: Layer.Layer<ProcessMetrics> = Layer.scoped(
  ProcessMetrics,
  Effect.gen(function*() {
    const loop = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const monitor = monitorEventLoopDelay({ resolution: 10 })
        monitor.enable()
        return monitor
      }),
      (monitor) => Effect.sync(() => monitor.disable())
    )
    const startedSeconds = Math.floor(performance.timeOrigin / 1000)
    return ProcessMetrics.of({
      sample: Effect.suspend(() => {
        const memory = process.memoryUsage()
        // Before its first 10 ms tick the monitor holds no sample, and its mean reads NaN.
        const mean = Number.isNaN(loop.mean) ? 0 : loop.mean / NANOS_PER_SECOND
        const p99 = loop.percentile(99) / NANOS_PER_SECOND
        loop.reset()
        return Effect.all([
          Metric.set(residentMemory, memory.rss),
          Metric.set(heapUsed, memory.heapUsed),
          Metric.set(heapTotal, memory.heapTotal),
          Metric.set(externalMemory, memory.external),
          Metric.set(loopLagMean, mean),
          Metric.set(loopLagP99, p99),
          Metric.set(startTime, startedSeconds)
        ], { discard: true })
      })
    })
  })
)
