import type { PayoutTransfer } from "../../core/payouts/payout-file.js"
import type { PlatformBankAccount } from "../../core/payouts/platform-bank-account.js"

/** The SEPA credit transfer message the manual rail writes: pain.001.001.09 (the EPC rulebook's since November 2023). */
export const SEPA_PAIN_FORMAT = "pain.001.001.09"

type SepaModule = typeof import("sepa")

let sepaModule: Promise<SepaModule> | undefined

/**
 * The `sepa` package, imported on first use: a host that never writes a SEPA file never loads it.
 * A failed import is tried again next time.
 */
const loadSepa = (): Promise<SepaModule> =>
  (sepaModule ??= import("sepa").catch((error: unknown) => {
    sepaModule = undefined
    throw new Error(`SEPA files need the "sepa" package (npm install sepa): ${error instanceof Error ? error.message : String(error)}`)
  }))

/** Minor units of a EUR amount written "123.45" (or "123"): exact, no float on the way. */
const cents = (amount: string): bigint => {
  const [whole, fraction = ""] = amount.split(".")
  return BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, "0"))
}

const euros = (minor: bigint): string => `${minor / 100n}.${(minor % 100n).toString().padStart(2, "0")}`

/** A SEPA file the library refused to write (a name too long for it, an IBAN it does not accept): its words. */
export class SepaFileRefused extends Error {}

export interface SepaFileRequest {
  readonly debtor: PlatformBankAccount
  readonly transfers: ReadonlyArray<PayoutTransfer>
  /** The message id: unique per file, at most 35 characters. */
  readonly messageId: string
  readonly createdAt: Date
  /** The day the bank is asked to execute it (YYYY-MM-DD). */
  readonly executionDate: string
}

/**
 * A pain.001 credit transfer initiation of the transfers, from the platform's account. The library
 * takes amounts as JavaScript numbers: each single amount (two decimals, below 10^9, as SEPA allows)
 * goes through a number exactly and is checked on the way out, but the library also *adds* them as
 * numbers, so the control sums it writes are replaced with the exact sum of the amounts in cents.
 */
export const sepaCreditTransfer = async (request: SepaFileRequest): Promise<string> => {
  const SEPA = await loadSepa()
  let xml: string
  try {
    const document = new SEPA.Document(SEPA_PAIN_FORMAT)
    document.grpHdr.id = request.messageId
    document.grpHdr.created = request.createdAt
    document.grpHdr.initiatorName = request.debtor.name
    const info = document.createPaymentInfo()
    // Noon UTC: the library writes the date in the host's time zone, and noon is the same day in all of them.
    info.requestedExecutionDate = new Date(`${request.executionDate}T12:00:00Z`)
    info.debtorName = request.debtor.name
    info.debtorIBAN = request.debtor.iban
    info.debtorBIC = request.debtor.bic ?? ""
    document.addPaymentInfo(info)
    for (const transfer of request.transfers) {
      const transaction = info.createTransaction()
      transaction.creditorName = transfer.accountHolder
      transaction.creditorIBAN = transfer.iban
      transaction.creditorBIC = transfer.bic ?? ""
      transaction.amount = Number(transfer.amount)
      transaction.end2endId = transfer.payout.id
      transaction.remittanceInfo = transfer.reference
      info.addTransaction(transaction)
    }
    xml = document.toString()
  } catch (error) {
    throw new SepaFileRefused(error instanceof Error ? error.message : String(error))
  }
  const written = [...xml.matchAll(/<InstdAmt[^>]*>([^<]*)<\/InstdAmt>/g)].map((match) => match[1])
  const expected = request.transfers.map((transfer) => euros(cents(transfer.amount)))
  if (written.join(",") !== expected.join(",")) throw new Error("the SEPA library wrote amounts other than the payouts'")
  const total = euros(request.transfers.reduce((sum, transfer) => sum + cents(transfer.amount), 0n))
  return xml.replaceAll(/<CtrlSum>[^<]*<\/CtrlSum>/g, `<CtrlSum>${total}</CtrlSum>`)
}
