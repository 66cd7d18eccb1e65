import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { exponentOfHeld } from "../money/currency-catalog.js"
import { toExactCurrencyString } from "../money/format.js"
import { csvField, csvRecord, csvText } from "../shared/csv.js"
import type { Environment } from "../shared/environment.js"
import { Instant, MICROS_PER_SECOND } from "../shared/instant.js"
import { ValidationFailed } from "../shared/validation.js"
import { SecretBox } from "../signing/secret-box.js"
import type { Payout } from "./payout.js"
import { PayoutDestinationRepository } from "./payout-destination-repository.js"
import { MANUAL_RAIL_ID } from "./payout-rail.js"
import { PayoutRepository } from "./payout-repository.js"

/** One transfer the operator makes: a payout with its bank account opened. */
export interface PayoutTransfer {
  readonly payout: Payout
  /** The amount in the currency's own digits, exactly ("9999999.99"). */
  readonly amount: string
  readonly accountHolder: string
  readonly iban: string
  readonly bic: string | null
  /** What the transfer tells the merchant's bank: the payout's id, so a statement line leads back to it. */
  readonly reference: string
}

export interface PayoutFileRequest {
  /** The day of approval, YYYY-MM-DD, in UTC. */
  readonly date: string
  readonly environment: Environment
  readonly currency: string
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/
const MICROS_PER_DAY = 86_400n * MICROS_PER_SECOND

/** The UTC day [start, end) a YYYY-MM-DD names; none for a date that is not one (2026-02-30). */
export const utcDay = (date: string): Option.Option<{ readonly from: Instant; readonly until: Instant }> => {
  const parts = DAY.exec(date)
  if (parts === null) return Option.none()
  const millis = Date.UTC(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3]))
  if (new Date(millis).toISOString().slice(0, 10) !== date) return Option.none()
  const from = Instant(BigInt(millis) * 1000n)
  return Option.some({ from, until: Instant(from + MICROS_PER_DAY) })
}

/**
 * The manual rail's payouts of one day, book and currency that are still approved (sent ones were
 * marked paid and drop out, so a file downloaded again never pays twice), oldest approval first,
 * each with its destination's IBAN opened: what the operator's file lists.
 */
export const approvedTransfersOf = (request: PayoutFileRequest) =>
  Effect.gen(function*() {
    const day = utcDay(request.date)
    if (Option.isNone(day)) return yield* ValidationFailed.field("date", "The date must be a day written YYYY-MM-DD.")
    const exponent = yield* exponentOfHeld(request.currency)
    const payouts = yield* (yield* PayoutRepository).listApproved({
      rail: MANUAL_RAIL_ID,
      environment: request.environment,
      currency: request.currency,
      ...day.value
    })
    const destinations = yield* PayoutDestinationRepository
    const box = yield* SecretBox
    const transfers: Array<PayoutTransfer> = []
    for (const payout of payouts) {
      const destination = Option.getOrThrowWith(yield* destinations.findForPayout(payout.destinationId), () => new Error(`payout ${payout.id} names no destination`))
      const iban = box.open(destination.sealedIban)
      if (Either.isLeft(iban)) return yield* Effect.die(new Error(`the IBAN of payout destination ${destination.id} does not open under MASTER_KEY`))
      transfers.push({
        payout,
        amount: toExactCurrencyString(payout.amount, exponent),
        accountHolder: destination.accountHolder,
        iban: iban.right,
        bic: destination.bic,
        reference: payout.id
      })
    }
    return transfers
  })

export const PAYOUT_FILE_CSV_COLUMNS = ["payout_id", "amount", "currency", "account_holder", "iban", "bic", "reference"] as const

/** The transfers as CSV, in the statement's style (RFC 4180, exact amounts, text cells defused against formulas). */
export const payoutFileCsv = (transfers: ReadonlyArray<PayoutTransfer>): string =>
  [
    csvRecord([...PAYOUT_FILE_CSV_COLUMNS]),
    ...transfers.map((transfer) =>
      csvRecord([
        csvText(transfer.payout.id),
        csvField(transfer.amount),
        csvText(transfer.payout.currency),
        csvText(transfer.accountHolder),
        csvText(transfer.iban),
        csvText(transfer.bic),
        csvText(transfer.reference)
      ]))
  ].join("")
