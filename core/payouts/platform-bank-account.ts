import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { SettingsRepository } from "../settings/settings-repository.js"

/**
 * The platform's own bank account that payouts leave from: the debtor of the manual rail's SEPA
 * file. An operator's setting (admin API), kept in the store so every host reads the same and a
 * change needs no restart; no secret (it is printed on every file it is in), so not sealed.
 */
export const PlatformBankAccount = Schema.Struct({
  name: Schema.String,
  iban: Schema.String,
  bic: Schema.NullOr(Schema.String)
})
export type PlatformBankAccount = typeof PlatformBankAccount.Type

const KEY = "payouts.platform_bank_account"

/** SEPA's limit for the debtor's name as pain.001 writers enforce it (Max70Text). */
export const MAX_PLATFORM_ACCOUNT_NAME_LENGTH = 70

export class PlatformBankAccountMissing extends Schema.TaggedError<PlatformBankAccountMissing>()("PlatformBankAccountMissing", {}) {}

/** The account as set; none before an operator sets it. */
export const platformBankAccount = Effect.flatMap(SettingsRepository, (settings) =>
  Effect.map(settings.get(KEY), Option.flatMap((text) => Schema.decodeUnknownOption(Schema.parseJson(PlatformBankAccount))(text))))

/** The account a SEPA file needs: PlatformBankAccountMissing until an operator sets it. */
export const requirePlatformBankAccount = Effect.flatMap(platformBankAccount, Option.match({
  onNone: () => Effect.fail(new PlatformBankAccountMissing()),
  onSome: Effect.succeed
}))

/** Replaces the account; the edge checked the IBAN and BIC, as it checks a merchant's. */
export const setPlatformBankAccount = (account: PlatformBankAccount) =>
  Effect.flatMap(SettingsRepository, (settings) =>
    Effect.as(settings.set(KEY, JSON.stringify(Schema.encodeSync(PlatformBankAccount)(account))), account))
