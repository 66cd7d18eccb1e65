import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import { Amount } from "../money/amount.js"
import { CurrencyCatalog } from "../money/currency-catalog.js"
import { parseSignedAmount } from "../money/parse.js"
import type { Gateway } from "../gateways/gateway.js"
import { gatewayCallee } from "../gateways/gateway-config.js"
import { PluginCallFailed } from "../gateways/gateway-plugin.js"
import { GatewayRepository } from "../gateways/gateway-repository.js"
import type { Environment } from "../shared/environment.js"
import { fromIsoString, Instant, MICROS_PER_SECOND, now, toIsoString } from "../shared/instant.js"
import { reconciliationLines } from "../shared/metrics.js"
import { ValidationFailed } from "../shared/validation.js"
import { Ids } from "../signing/random-ids.js"
import { ReconciliationRepository } from "./reconciliation-repository.js"
import { type ReportSource, RECONCILIATION_OUTCOMES, type SettlementLine, SettlementReportUnsupported } from "./settlement.js"
import { parseSettlementCsv } from "./settlement-csv.js"

/**
 * How far either side of the period a line still finds the kit's record: a payment completed on the
 * 31st that the gateway settles on the 2nd matches in the next month's report, and a refund made in
 * one period may settle weeks into the next. The kit's records outside the period itself are never
 * missing at the gateway: only a line can claim them.
 */
export const KIT_LOOKAROUND = 35n * 86_400n * MICROS_PER_SECOND

/** A report covers at most this long: a month and then some; longer periods are run in parts. */
export const MAX_PERIOD = 93n * 86_400n * MICROS_PER_SECOND

export interface Period {
  readonly from: Instant
  readonly to: Instant
}

/** A period that holds something and is not longer than MAX_PERIOD. */
export const checkPeriod = (period: Period): Effect.Effect<void, ValidationFailed> =>
  period.to <= period.from
    ? ValidationFailed.field("to", "The to time must be after from.")
    : period.to - period.from > MAX_PERIOD
    ? ValidationFailed.field("to", "A report covers at most 93 days.")
    : Effect.void

const gatewayOfCode = (code: string, column: string) =>
  Effect.flatMap(GatewayRepository, (gateways) =>
    Effect.flatMap(gateways.list, (all) => {
      const found = all.find((gateway) => gateway.code === code)
      return found !== undefined ? Effect.succeed(found) : ValidationFailed.field(column, `No gateway has the code ${JSON.stringify(code)}.`)
    }))

/** Stores the lines and matches them to the kit's records of the gateway, set-wise in the store. */
const reconcileLines = (gateway: Gateway, environment: Environment, period: Period, source: ReportSource, lines: ReadonlyArray<SettlementLine>) =>
  Effect.gen(function*() {
    const id = `rr_${(yield* (yield* Ids).uuid).replaceAll("-", "")}`
    const report = yield* (yield* ReconciliationRepository).reconcile({
      id,
      gatewayId: gateway.id,
      gatewayCode: gateway.code,
      environment,
      from: period.from,
      to: period.to,
      kitFrom: Instant(period.from - KIT_LOOKAROUND),
      kitTo: Instant(period.to + KIT_LOOKAROUND),
      source,
      lines,
      createdAt: yield* now
    })
    for (const outcome of RECONCILIATION_OUTCOMES) {
      const count = report.counts[outcome]
      if (count > 0) yield* Metric.incrementBy(Metric.tagged(reconciliationLines, "outcome", outcome), count)
    }
    return report
  })

/** An operator's upload: the kit's settlement CSV for one gateway record and environment over the period. */
export const reconcileUpload = (csv: string, period: Period) =>
  Effect.gen(function*() {
    yield* checkPeriod(period)
    const catalog = yield* CurrencyCatalog
    const parsed = yield* parseSettlementCsv(csv, { ...period, exponentOf: (code) => Option.getOrUndefined(catalog.exponentOf(code)) })
    const gateway = yield* gatewayOfCode(parsed.gateway, "gateway")
    return yield* reconcileLines(gateway, parsed.environment, period, "upload", parsed.lines)
  })

const malformed = (plugin: string, message: string) => new PluginCallFailed({ plugin, call: "settlementReport", reason: "malformed", message })

/** Asks the gateway's plugin for its settlement over the period and reconciles it as an upload would be. */
export const reconcileFromGateway = (request: { readonly gateway: string; readonly environment: Environment } & Period) =>
  Effect.gen(function*() {
    yield* checkPeriod(request)
    const gateway = yield* gatewayOfCode(request.gateway, "gateway")
    const { config, plugin, ref } = yield* gatewayCallee(gateway)
    if (plugin.settlementReport === undefined) return yield* new SettlementReportUnsupported({ gateway: gateway.code })
    const answer = yield* plugin.settlementReport({
      environment: request.environment,
      gateway: ref,
      config,
      from: toIsoString(request.from),
      to: toIsoString(request.to)
    })
    const catalog = yield* CurrencyCatalog
    const lines: Array<SettlementLine> = []
    for (const [index, line] of answer.entries()) {
      const exponent = Option.getOrUndefined(catalog.exponentOf(line.currency))
      if (exponent === undefined) return yield* malformed(plugin.id, `line ${index + 1}: unknown currency ${line.currency}`)
      const amount = parseSignedAmount({ kind: "string", value: line.amount }, exponent)
      if (Either.isLeft(amount)) return yield* malformed(plugin.id, `line ${index + 1}: ${amount.left.message}`)
      const settledAt = fromIsoString(line.settledAt)
      // A line outside the period belongs to another report: the gateway's clock and the kit's agree on UTC.
      if (settledAt === undefined || settledAt < request.from || settledAt >= request.to) {
        return yield* malformed(plugin.id, `line ${index + 1}: settledAt ${line.settledAt} is not inside the period`)
      }
      lines.push({ lineNo: index + 1, gatewayReference: line.gatewayReference, type: line.type, amount: Amount(amount.right), currency: line.currency, settledAt })
    }
    return yield* reconcileLines(gateway, request.environment, request, "gateway", lines)
  })
