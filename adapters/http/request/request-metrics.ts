import * as Context from "effect/Context"
import * as Metric from "effect/Metric"
import * as MetricKey from "effect/MetricKey"
import * as MetricLabel from "effect/MetricLabel"
import { secondsBoundaries } from "../../../core/shared/metrics.js"

const requestsTotal = MetricKey.counter("merchant_payments_http_requests_total", {
  description: "HTTP requests answered, by route template, method and status",
  incremental: true
})
const requestDuration = MetricKey.histogram(
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
 * One series per label set, made once from its full key: a metric tagged with `Metric.tagged` builds
 * its key and looks it up in the registry again on every update (its hook cache is keyed by a label
 * array made afresh each time), which a profile showed on every request. Label sets are bounded
 * (templates x methods x statuses).
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

const tagged = <T extends MetricKey.MetricKey.Untyped>(key: T) =>
  seriesCache((labels) => Metric.fromMetricKey(MetricKey.taggedWithLabels(key, labels.map(([name, value]) => MetricLabel.make(name, value)))))

const countOf = tagged(requestsTotal)
const durationOf = tagged(requestDuration)

/** A request no route took is one series, whatever its path: paths are unbounded, labels must not be. */
const UNMATCHED = "unmatched"
/** Methods are whatever a client writes; any but HTTP's own is one series too. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])

/**
 * One answered request counted by its route template, method and status, and timed; a request cut
 * off before its answer (the client left) is counted with status `aborted`. (Part of the request
 * edge, request-edge.ts.)
 */
export const countRequest = (route: string | undefined, requestMethod: string, status: number | undefined, seconds: number) => {
  const method = METHODS.has(requestMethod) ? requestMethod : "other"
  const label = route ?? UNMATCHED
  countOf([["route", label], ["method", method], ["status", status === undefined ? "aborted" : String(status)]]).unsafeUpdate(1, [])
  durationOf([["route", label], ["method", method]]).unsafeUpdate(seconds, [])
}
