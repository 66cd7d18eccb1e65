import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { approvedTransfersOf, payoutFileCsv } from "../../../core/payouts/payout-file.js"
import { platformBankAccount, requirePlatformBankAccount, setPlatformBankAccount } from "../../../core/payouts/platform-bank-account.js"
import { now, toIsoString } from "../../../core/shared/instant.js"
import { ValidationFailed } from "../../../core/shared/validation.js"
import { SEPA_PAIN_FORMAT, SepaFileRefused, sepaCreditTransfer } from "../../payout-files/sepa-credit-transfer.js"
import * as Contract from "../contract/payout-file-contracts.js"
import { validBody } from "../contract/read-body.js"
import { endpoint } from "../endpoint/endpoint.js"
import { FileAnswer, TextFile } from "../response/text-file.js"

const TAG = "Admin: payouts"

/** The message id of a file: the day, the book and the second it was written, so no two files share one (at most 35 characters). */
const messageIdOf = (date: string, environment: string, at: string) =>
  `MP-${date.replaceAll("-", "")}-${environment === "production" ? "P" : "S"}-${at.slice(11, 19).replaceAll(":", "")}`

const exportFile = endpoint({
  method: "get",
  path: "/admin/v1/payouts/export",
  operationId: "exportPayouts",
  summary: "The manual rail's file: a day's approved payouts to bank accounts",
  description: "The payouts of one book (environment and currency) approved on the day (UTC) and still approved, oldest approval first, " +
    "as a SEPA credit transfer (`format=sepa`, EUR only, from the platform's bank account) or CSV (any currency). " +
    "IBANs are in full: every download is audited. Mark each payout paid (or failed) once the bank has it; a paid payout leaves the file.",
  tag: TAG,
  security: "admin",
  auditedRead: true,
  query: Contract.payoutFileQuery,
  success: { status: 200, description: "The file, as an attachment.", schema: FileAnswer, files: ["application/xml", "text/csv"] },
  errors: ["PlatformBankAccountMissing"],
  handler: (query) =>
    Effect.gen(function*() {
      if (query.format === "sepa" && query.currency !== "EUR") {
        return yield* ValidationFailed.field("currency", "A SEPA credit transfer file is in EUR only; ask for format=csv for other currencies.", "INVALID_CURRENCY")
      }
      const debtor = query.format === "sepa" ? Option.some(yield* requirePlatformBankAccount) : Option.none()
      const transfers = yield* approvedTransfersOf(query)
      const name = `payouts-${query.date}-${query.environment}-${query.currency.toLowerCase()}`
      if (Option.isNone(debtor)) return new TextFile("text/csv; charset=utf-8", payoutFileCsv(transfers), `${name}.csv`)
      if (transfers.length === 0) {
        return yield* ValidationFailed.field("date", `No EUR payouts approved on ${query.date} are waiting to be sent: a SEPA file needs at least one.`)
      }
      const at = toIsoString(yield* now)
      const xml = yield* Effect.tryPromise({
        try: () =>
          sepaCreditTransfer({
            debtor: debtor.value,
            transfers,
            messageId: messageIdOf(query.date, query.environment, at),
            createdAt: new Date(at),
            executionDate: at.slice(0, 10) > query.date ? at.slice(0, 10) : query.date
          }),
        catch: (error) => error
      }).pipe(Effect.catchIf(
        (error): error is SepaFileRefused => error instanceof SepaFileRefused,
        (refused) => ValidationFailed.field("date", `The SEPA file cannot be written: ${refused.message}`)
      ), Effect.orDie)
      return new TextFile("application/xml; charset=utf-8", xml, `${name}.${SEPA_PAIN_FORMAT}.xml`)
    })
})

const getBankAccount = endpoint({
  method: "get",
  path: "/admin/v1/payouts/bank-account",
  operationId: "getPlatformBankAccount",
  summary: "The platform's bank account payouts leave from",
  description: "The debtor of the manual rail's SEPA files; `data` is null until it is set.",
  tag: TAG,
  security: "admin",
  success: { status: 200, description: "The account, or null.", schema: Contract.PlatformBankAccountOrNone },
  handler: Effect.map(platformBankAccount, (account) => ({ data: Option.getOrNull(account) }))
})

const setBankAccount = endpoint({
  method: "put",
  path: "/admin/v1/payouts/bank-account",
  operationId: "setPlatformBankAccount",
  summary: "Set the platform's bank account payouts leave from",
  description: "Replaces it; every host uses it for the next SEPA file.",
  tag: TAG,
  security: "admin",
  body: Contract.platformBankAccountBody,
  success: { status: 200, description: "The account.", schema: Contract.PlatformBankAccount },
  handler: Effect.gen(function*() {
    const body = yield* validBody(Contract.platformBankAccountBody)
    return { data: yield* setPlatformBankAccount({ name: body.name, iban: body.iban, bic: body.bic ?? null }) }
  })
})

/** docs/admin-api.md, payouts: the manual rail's file and the account it is paid from. */
export const adminPayoutFileEndpoints = [exportFile, getBankAccount, setBankAccount] as const
