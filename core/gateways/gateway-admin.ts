import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { requireMerchant } from "../merchants/merchant-admin.js"
import { CurrencyCatalog } from "../money/currency-catalog.js"
import type { GatewayId, MerchantId } from "../shared/ids.js"
import { ValidationFailed } from "../shared/validation.js"
import { GatewayNotFound, type GatewayPatch, type GatewayType } from "./gateway.js"
import { mergeSecrets, openConfig, sealConfig, validateConfig } from "./gateway-config.js"
import { GatewayPlugins } from "./gateway-plugin.js"
import { GatewayRepository } from "./gateway-repository.js"
import { changesCheckoutConfig } from "../payments/checkout-config.js"

/** Administrator input for a new gateway; the HTTP edge has already applied the defaults. */
export interface GatewayInput {
  readonly plugin: string
  readonly name: string
  readonly currencyCode: string
  readonly method: string
  readonly type: GatewayType
  readonly active: boolean
  /** The plugin's settings as sent; absent means `{}`, which the plugin's parseConfig may refuse. */
  readonly config?: Readonly<Record<string, unknown>>
}

/** The method becomes half of the unique code `<method>-<currency>`, so it is kept to a plain slug. */
export const METHOD_PATTERN = /^[a-z0-9][a-z0-9_]{0,30}$/i

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
      fail("currencyCode", `Unsupported currency code: ${input.currencyCode}.`)
      code = "INVALID_CURRENCY"
    } else if (plugin !== undefined && plugin.currencies !== "any" && !plugin.currencies.includes(input.currencyCode)) {
      fail("currencyCode", `The ${plugin.id} plugin cannot serve ${input.currencyCode}; it serves ${plugin.currencies.join(", ")}.`)
    }
    if (!METHOD_PATTERN.test(input.method)) {
      fail("method", "The method must be 1 to 31 letters, digits or underscores, starting with a letter or digit.")
    }
    const config = plugin === undefined ? undefined : yield* Effect.either(validateConfig(plugin, input.config ?? {}))
    if (config !== undefined && config._tag === "Left") for (const message of config.left.errors["config"] ?? []) fail("config", message)

    if (Object.keys(errors).length > 0 || plugin === undefined || config === undefined || config._tag === "Left") {
      return yield* new ValidationFailed({ errors, code })
    }
    return yield* (yield* GatewayRepository).create({
      plugin: input.plugin,
      name: input.name,
      currency: input.currencyCode,
      method: input.method,
      type: input.type,
      active: input.active,
      config: yield* sealConfig(plugin, config.right)
    })
  }).pipe(changesCheckoutConfig)

export const listGateways = Effect.flatMap(GatewayRepository, (repository) => repository.list)

/**
 * Name, type, activity and config: the plugin, method and currency make the code, which never
 * changes. A new config replaces the old one whole, except secret fields left out, which keep theirs.
 */
export const updateGateway = (id: GatewayId, patch: GatewayPatch) =>
  Effect.gen(function*() {
    const repository = yield* GatewayRepository
    let changes = patch
    if (patch.config !== undefined) {
      const current = yield* repository.findById(id)
      if (Option.isNone(current)) return yield* new GatewayNotFound({ gatewayId: id })
      const plugin = yield* Effect.mapError((yield* GatewayPlugins).get(current.value.plugin), () =>
        ValidationFailed.field("config", `The gateway's plugin ${JSON.stringify(current.value.plugin)} is not registered, so its config cannot be checked.`))
      const stored = yield* Effect.mapError(openConfig(plugin, current.value.config), (failed) => ValidationFailed.field("config", failed.message))
      const valid = yield* validateConfig(plugin, mergeSecrets(plugin, stored, patch.config))
      changes = { ...patch, config: yield* sealConfig(plugin, valid) }
    }
    const updated = yield* repository.update(id, changes)
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
      return yield* ValidationFailed.field("gatewayIds", `Unknown gateway id${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}.`)
    }
    yield* repository.replaceMerchantSelection(merchantId, wanted)
    return yield* repository.merchantSelection(merchantId)
  }).pipe(changesCheckoutConfig)
