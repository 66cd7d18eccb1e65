import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Metric from "effect/Metric"
import { secondsBoundaries } from "../../../core/shared/metrics.js"

const requestsTotal = Metric.counter("merchant_payments_http_requests_total", {
  description: "HTTP requests answered, by route template, method and status",
  incremental: true
})
const requestDuration = Metric.histogram(
  "merchant_payments_http_request_duration_seconds",
  secondsBoundaries,
  "Seconds from a request's arrival to its answer, by route template and method"
)

/** Whether this kit keeps and shows metrics (`metrics: false` turns both off), and who may read them. */
export class MetricsSettings extends Context.Tag("merchant-payments/http/MetricsSettings")<MetricsSettings, {
  readonly enabled: boolean
  /** Readable without the admin token (METRICS_PUBLIC=true). */
  readonly public: boolean
}>() {}

/**
 * One series per label set, made once: the registry lookup behind a freshly tagged metric would be
 * paid on every request otherwise. Label sets are bounded (templates x methods x statuses).
 */
const seriesCache = <M>(make: (labels: ReadonlyArray<readonly [string, string]>) => M) => {
  const made = new Map<string, M>()
  return (labels: ReadonlyArray<readonly [string, string]>): M => {
    const key = labels.map(([, value]) => value).join(" ")
    let series = made.get(key)
    if (series === undefined) {
      series = make(labels)
      made.set(key, series)
    }
    return series
  }
}

const tagged = <T, I, O>(metric: Metric.Metric<T, I, O>) =>
  seriesCache((labels) => labels.reduce((current, [key, value]) => Metric.tagged(current, key, value), metric))

const countOf = tagged(requestsTotal)
const durationOf = tagged(requestDuration)

/** A request no route took is one series, whatever its path: paths are unbounded, labels must not be. */
const UNMATCHED = "unmatched"
/** Methods are whatever a client writes; any but HTTP's own is one series too. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])

/**
 * Middleware: every answered request counted by its route template, method and status, and timed.
 * A request cut off before its answer (the client left) is counted with status `aborted`.
 */
export const withRequestMetrics = (templateOf: (method: string, pathname: string) => string | undefined) =>
<E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.flatMap(MetricsSettings, (settings) => {
    if (!settings.enabled) return app
    return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const started = performance.now()
      return Effect.onExit(app, (exit) =>
        Effect.sync(() => {
          const queryStart = request.url.indexOf("?")
          const route = templateOf(request.method, queryStart === -1 ? request.url : request.url.slice(0, queryStart)) ?? UNMATCHED
          const method = METHODS.has(request.method) ? request.method : "other"
          const status = Exit.isSuccess(exit) ? String(exit.value.status) : "aborted"
          countOf([["route", route], ["method", method], ["status", status]]).unsafeUpdate(1, [])
          durationOf([["route", route], ["method", method]]).unsafeUpdate((performance.now() - started) / 1000, [])
        }))
    })
  })
