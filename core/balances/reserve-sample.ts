import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import { Amount } from "../money/amount.js"
import { toJsonNumberText } from "../money/format.js"
import type { Environment } from "../shared/environment.js"
import { reserveHeld } from "../shared/metrics.js"
import { BalanceRepository } from "./balance-repository.js"

/** Books given a figure before: like Effect's metric registry, one per process. */
const booksSeen = new Map<string, { readonly environment: Environment; readonly currency: string }>()

/**
 * The reserve held now, as the store has it, set on the gauge when metrics are read. A book whose
 * holds were all released since is set to 0, not left at its last figure. A store that does not
 * answer leaves the last figures in place, and the scrape goes on.
 */
export const sampleReserveHeld = Effect.gen(function*() {
  const totals = yield* (yield* BalanceRepository).reservedTotals
  const now = new Map(totals.map((total) => [`${total.environment} ${total.currency}`, total]))
  for (const [key, book] of booksSeen) if (!now.has(key)) now.set(key, { ...book, amount: Amount(0n) })
  for (const [key, total] of now) {
    booksSeen.set(key, { environment: total.environment, currency: total.currency })
    const gauge = Metric.tagged(Metric.tagged(reserveHeld, "environment", total.environment), "currency", total.currency)
    yield* Metric.set(gauge, Number(toJsonNumberText(total.amount)))
  }
}).pipe(Effect.catchAll((error) => Effect.logWarning("the reserve held could not be read for metrics", error)))
