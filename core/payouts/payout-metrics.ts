import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import { payoutsMoved } from "../shared/metrics.js"
import type { Payout } from "./payout.js"

/** Counts a payout in the status it just reached, once its transaction committed. */
export const countPayout = (payout: Payout) =>
  Metric.increment(Metric.tagged(Metric.tagged(payoutsMoved, "environment", payout.environment), "status", payout.status)).pipe(Effect.asVoid)
