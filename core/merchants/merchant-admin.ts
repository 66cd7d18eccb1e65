import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { Amount, SCALE } from "../money/amount.js"
import { CurrencyCatalog } from "../money/currency-catalog.js"
import { type AmountInput, parseAmount, parseFeePercent } from "../money/parse.js"
import { generateCredentials, hashApiKey } from "../signing/credential-keys.js"
import { SecretBox } from "../signing/secret-box.js"
import type { MerchantId } from "../shared/ids.js"
import { plusSeconds } from "../shared/instant.js"
import { realNow } from "../shared/real-clock.js"
import { type Page, type PageRequest, pageOffset } from "../shared/page.js"
import { ValidationFailed } from "../shared/validation.js"
import { Authenticator } from "./authenticator.js"
import { CredentialRepository } from "./credentials.js"
import { MerchantCurrencyRepository } from "./currency-repository.js"
import type { Environment } from "../shared/environment.js"
import { type Merchant, MerchantNotFound, type MerchantPatch, type MerchantStatus } from "./merchant.js"
import { MerchantRepository } from "./merchant-repository.js"
import { changesCheckoutConfig } from "../payments/checkout-config.js"
import type { IpnJsonStyle, IpnSignatureFormat } from "../webhooks/ipn-compatibility.js"

/** Administrator input: money fields arrive as their raw JSON text and are parsed exactly here. */
export interface MerchantInput {
  readonly name?: string
  readonly status?: MerchantStatus
  readonly ipnSignatureFormat?: IpnSignatureFormat
  readonly ipnJsonStyle?: IpnJsonStyle
  readonly feePercent?: AmountInput
  readonly feeFixed?: AmountInput
  readonly disputeFee?: AmountInput
}

const parseFees = (input: MerchantInput) => {
  const errors: Record<string, Array<string>> = {}
  const percent = input.feePercent === undefined ? undefined : parseFeePercent(input.feePercent)
  // The fixed fee applies in each payment's own currency, so it is held at the full money scale
  // and rounded with the rest of the fee to that currency's minor unit when a payment is priced.
  const fixed = input.feeFixed === undefined ? undefined : parseAmount(input.feeFixed, SCALE)
  if (percent !== undefined && Either.isLeft(percent)) errors["feePercent"] = [percent.left.message]
  if (fixed !== undefined && Either.isLeft(fixed)) errors["feeFixed"] = [fixed.left.message]
  // As the fixed fee: in each disputed payment's currency, rounded to its minor unit when charged.
  const dispute = input.disputeFee === undefined ? undefined : parseAmount(input.disputeFee, SCALE)
  if (dispute !== undefined && Either.isLeft(dispute)) errors["disputeFee"] = [dispute.left.message]
  if (Object.keys(errors).length > 0) return Effect.fail(new ValidationFailed({ errors, code: "INVALID_AMOUNT" }))
  return Effect.succeed({
    ...(percent !== undefined && Either.isRight(percent) ? { feePercent: percent.right } : {}),
    ...(fixed !== undefined && Either.isRight(fixed) ? { feeFixed: fixed.right } : {}),
    ...(dispute !== undefined && Either.isRight(dispute) ? { disputeFee: dispute.right } : {})
  })
}

/** The IPN compatibility settings given; the others keep their values (a new merchant's: the contract's spelling). */
const ipnSettings = (input: MerchantInput) => ({
  ...(input.ipnSignatureFormat !== undefined ? { ipnSignatureFormat: input.ipnSignatureFormat } : {}),
  ...(input.ipnJsonStyle !== undefined ? { ipnJsonStyle: input.ipnJsonStyle } : {})
})

/** The merchant, or MerchantNotFound: admin operations on a missing merchant are a 404, not a no-op. */
export const requireMerchant = (id: MerchantId) =>
  Effect.flatMap(MerchantRepository, (repository) => repository.findById(id)).pipe(
    Effect.flatMap(Option.match({
      onNone: () => Effect.fail(new MerchantNotFound({ merchantId: id })),
      onSome: Effect.succeed
    }))
  )

/** One page of merchants, newest first, optionally of one review status. */
export const listMerchants = (request: PageRequest & { readonly status?: MerchantStatus }) =>
  Effect.flatMap(MerchantRepository, (repository) =>
    repository.list({
      limit: request.perPage,
      offset: pageOffset(request),
      ...(request.status !== undefined ? { status: request.status } : {})
    })).pipe(
      Effect.map(({ merchants, total }): Page<Merchant> => ({ items: merchants, total, page: request.page, perPage: request.perPage }))
    )

export const createMerchant = (input: MerchantInput & { readonly name: string }) =>
  Effect.gen(function*() {
    const fees = yield* parseFees(input)
    return yield* (yield* MerchantRepository).create({
      name: input.name,
      status: input.status ?? "pending",
      ...ipnSettings(input),
      feePercent: fees.feePercent ?? Amount(0n),
      feeFixed: fees.feeFixed ?? Amount(0n),
      disputeFee: fees.disputeFee ?? Amount(0n)
    })
  })

export const updateMerchant = (id: MerchantId, input: MerchantInput) =>
  Effect.gen(function*() {
    const fees = yield* parseFees(input)
    const patch: MerchantPatch = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...ipnSettings(input),
      ...fees
    }
    const updated = yield* (yield* MerchantRepository).update(id, patch)
    if (Option.isNone(updated)) return yield* new MerchantNotFound({ merchantId: id })
    // A status change must reach authentication at once on this host (a suspension above all).
    yield* (yield* Authenticator).invalidate
    return updated.value
  })

/**
 * Issues a fresh credential set for one environment. The set it replaces stops working at once, or,
 * with `overlapSeconds`, stays valid beside the new one for that long (wall-clock time), so a merchant
 * can move its servers over and its receiver can verify deliveries signed either way. The plaintext is
 * returned once, here; only the API key's hash and the sealed secrets are stored.
 */
export const issueCredentials = (id: MerchantId, environment: Environment, options: { readonly overlapSeconds?: number } = {}) =>
  Effect.gen(function*() {
    yield* requireMerchant(id)
    const box = yield* SecretBox
    const issued = generateCredentials(environment)
    const overlap = options.overlapSeconds ?? 0
    const previousValidUntil = overlap > 0 ? plusSeconds(yield* realNow, overlap) : null
    yield* (yield* CredentialRepository).rotate({
      merchantId: id,
      environment,
      merchantKey: issued.merchantKey,
      apiKeyHash: hashApiKey(issued.apiKey),
      sealedClientSecret: box.seal(issued.clientSecret),
      sealedWebhookSecret: box.seal(issued.webhookSecret)
    }, previousValidUntil === null ? {} : { retireAt: previousValidUntil })
    yield* (yield* Authenticator).invalidate
    return { environment, ...issued, previousValidUntil }
  })

/** Ends an overlap early: every replaced set of the environment stops working and is destroyed now. */
export const endCredentialOverlap = (id: MerchantId, environment: Environment) =>
  Effect.gen(function*() {
    yield* requireMerchant(id)
    const destroyed = yield* (yield* CredentialRepository).endOverlap(id, environment)
    yield* (yield* Authenticator).invalidate
    return { environment, destroyed }
  })

export const replaceCurrencies = (id: MerchantId, codes: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    yield* requireMerchant(id)
    const catalog = yield* CurrencyCatalog
    const unknown = codes.filter((code) => !catalog.isKnown(code))
    if (unknown.length > 0) {
      return yield* ValidationFailed.field("currencyCodes", `Unsupported currency code: ${unknown.join(", ")}.`, "INVALID_CURRENCY")
    }
    const repository = yield* MerchantCurrencyRepository
    yield* repository.replace(id, codes)
    return yield* repository.list(id)
  }).pipe(changesCheckoutConfig)
