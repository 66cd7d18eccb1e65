import { Effect, Either, Option, ParseResult, Schema } from "effect"
import { requireMerchant } from "../merchants/merchant-admin.js"
import { CurrencyCatalog } from "../money/currency-catalog.js"
import type { GatewayId, MerchantId } from "../shared/ids.js"
import { ValidationFailed } from "../shared/validation.js"
import { GatewayNotFound, type GatewayPatch, type GatewayType } from "./gateway.js"
import type { GatewayPlugin } from "./gateway-plugin.js"
import { GatewayPlugins } from "./gateway-plugin.js"
import { GatewayRepository } from "./gateway-repository.js"
import { changesCheckoutConfig } from "./checkout-config.js"

/** Administrator input for a new gateway; the HTTP edge has already applied the defaults. */
export interface GatewayInput {
  readonly plugin: string
  readonly name: string
  readonly currencyCode: string
  readonly method: string
  readonly type: GatewayType
  readonly active: boolean
  /** The plugin's settings as sent; absent means `{}`, which the plugin's schema may refuse. */
  readonly config?: unknown
}

/** The method becomes half of the unique code `<method>-<currency>`, so it is kept to a plain slug. */
export const METHOD_PATTERN = /^[a-z0-9][a-z0-9_]{0,30}$/i

// Schema's own wording ("Expected string, actual 1") inside a sentence, so every answer reads alike.
const issueText = (issue: ParseResult.ArrayFormatterIssue) =>
  issue.path.length === 0
    ? `The config is invalid: ${issue.message}.`
    : `The config field ${issue.path.map(String).join(".")} is invalid: ${issue.message}.`

/**
 * Decodes with the plugin's schema, then encodes back: what is stored is the schema's own canonical
 * form. Unknown keys are refused rather than dropped, so an administrator's typo is reported, not lost.
 */
const validConfig = (plugin: GatewayPlugin, input: unknown): Either.Either<Readonly<Record<string, unknown>>, ReadonlyArray<string>> => {
  const options = { errors: "all", onExcessProperty: "error" } as const
  const decoded = Schema.decodeUnknownEither(plugin.configSchema)(input, options)
  const encoded = Either.flatMap(decoded, (value) => Schema.encodeUnknownEither(plugin.configSchema)(value, options))
  if (Either.isLeft(encoded)) return Either.left(ParseResult.ArrayFormatter.formatErrorSync(encoded.left).map(issueText))
  const value: unknown = encoded.right
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? Either.right(value as Readonly<Record<string, unknown>>)
    : Either.left([`The ${plugin.id} plugin's configuration must be a JSON object.`])
}

/**
 * Every rule is checked before failing, so the administrator sees all problems at once. Only an
 * unknown currency carries INVALID_CURRENCY: a known one the plugin cannot serve is a plain mismatch.
 */
export const createGateway = (input: GatewayInput) =>
  Effect.gen(function*() {
    const plugins = yield* GatewayPlugins
    const catalog = yield* CurrencyCatalog
    const errors: Record<string, Array<string>> = {}
    const fail = (field: string, message: string) => void (errors[field] ??= []).push(message)
    let code: ValidationFailed["code"] = "VALIDATION_FAILED"

    const plugin = Option.getOrUndefined(yield* Effect.option(plugins.get(input.plugin)))
    if (plugin === undefined) {
      const known = plugins.list.map((p) => p.id).join(", ")
      fail("plugin", `Unknown gateway plugin ${JSON.stringify(input.plugin)}. Registered plugins: ${known === "" ? "none" : known}.`)
    }
    if (!catalog.isKnown(input.currencyCode)) {
      fail("currency_code", `Unsupported currency code: ${input.currencyCode}.`)
      code = "INVALID_CURRENCY"
    } else if (plugin !== undefined && plugin.currencies !== "any" && !plugin.currencies.includes(input.currencyCode)) {
      fail("currency_code", `The ${plugin.id} plugin cannot serve ${input.currencyCode}; it serves ${plugin.currencies.join(", ")}.`)
    }
    if (!METHOD_PATTERN.test(input.method)) {
      fail("method", "The method must be 1 to 31 letters, digits or underscores, starting with a letter or digit.")
    }
    const config = plugin === undefined ? undefined : validConfig(plugin, input.config ?? {})
    if (config !== undefined && Either.isLeft(config)) for (const message of config.left) fail("config", message)

    if (Object.keys(errors).length > 0 || config === undefined || Either.isLeft(config)) {
      return yield* new ValidationFailed({ errors, code })
    }
    return yield* (yield* GatewayRepository).create({
      plugin: input.plugin,
      name: input.name,
      currency: input.currencyCode,
      method: input.method,
      type: input.type,
      active: input.active,
      config: config.right
    })
  }).pipe(changesCheckoutConfig)

export const listGateways = Effect.flatMap(GatewayRepository, (repository) => repository.list)

/** Name, type and activity only: the plugin, method and currency make the code, which never changes. */
export const updateGateway = (id: GatewayId, patch: Pick<GatewayPatch, "name" | "active" | "type">) =>
  Effect.gen(function*() {
    const updated = yield* (yield* GatewayRepository).update(id, patch)
    if (Option.isNone(updated)) return yield* new GatewayNotFound({ gatewayId: id })
    return updated.value
  }).pipe(changesCheckoutConfig)

/**
 * The gateways a merchant offers on checkout; an empty list clears the restriction (all eligible
 * gateways). Inactive or other-currency gateways may be picked: eligibility filters them per payment.
 */
export const replaceMerchantGateways = (merchantId: MerchantId, gatewayIds: ReadonlyArray<GatewayId>) =>
  Effect.gen(function*() {
    yield* requireMerchant(merchantId)
    const repository = yield* GatewayRepository
    const wanted = [...new Set(gatewayIds)]
    const found = new Set((yield* repository.listByIds(wanted)).map((gateway) => gateway.id))
    const missing = wanted.filter((id) => !found.has(id))
    if (missing.length > 0) {
      return yield* ValidationFailed.field("gateway_ids", `Unknown gateway id${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}.`)
    }
    yield* repository.replaceMerchantSelection(merchantId, wanted)
    return yield* repository.merchantSelection(merchantId)
  }).pipe(changesCheckoutConfig)
