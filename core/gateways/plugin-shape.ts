import * as Either from "effect/Either"
import type { Environment } from "../shared/environment.js"
import { GATEWAY_PLUGIN_API_VERSION, type GatewayPluginDefinition, type PluginCapabilities } from "./gateway-plugin.js"

/** Gateway records store the id and URLs may carry it: keep it short, lower case and URL-safe. */
export const PLUGIN_ID_PATTERN = /^[a-z][a-z0-9-]{1,31}$/
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/
const CURRENCY = /^[A-Z][A-Z0-9]{2,9}$/
const ENVIRONMENTS: ReadonlyArray<Environment> = ["sandbox", "production"]

/** Which method each capability needs: a capability claimed without it would fail mid-payment. */
const CAPABILITY_METHODS: Readonly<Record<keyof PluginCapabilities, string | undefined>> = {
  notifications: "handleNotification",
  statusSync: "syncStatus",
  refunds: "refund",
  partialRefunds: undefined,
  payouts: "sendPayout",
  disputeEvidence: "submitDisputeEvidence",
  savedMethods: "chargeSaved"
}

/** The destination types a rail may name: those payout destinations can be (core/payouts/payout-destination.ts). */
export const PAYOUT_DESTINATION_TYPES: ReadonlyArray<string> = ["bank_account", "stripe_account"]

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/** Every problem with a plugin object, in plain words; empty when it can be hosted. */
const problemsOf = (plugin: Record<string, unknown>): ReadonlyArray<string> => {
  const problems: Array<string> = []
  if (plugin["apiVersion"] !== GATEWAY_PLUGIN_API_VERSION) {
    // Said first and alone: a plugin for another version is expected to differ in everything else.
    return [`it was written for gateway plugin API version ${String(plugin["apiVersion"])}, but this kit speaks version ${GATEWAY_PLUGIN_API_VERSION}`]
  }
  if (typeof plugin["id"] !== "string" || !PLUGIN_ID_PATTERN.test(plugin["id"])) {
    problems.push("its id must be 2 to 32 lower-case letters, digits or hyphens, starting with a letter")
  }
  if (typeof plugin["displayName"] !== "string" || plugin["displayName"].trim() === "") problems.push("displayName must be a non-empty string")
  if (typeof plugin["version"] !== "string" || !SEMVER.test(plugin["version"])) problems.push("version must be a semver string such as 1.0.0")
  const currencies = plugin["currencies"]
  if (currencies !== "any" && !(Array.isArray(currencies) && currencies.length > 0 && currencies.every((code) => typeof code === "string" && CURRENCY.test(code)))) {
    problems.push(`currencies must be "any" or a non-empty list of upper-case currency codes`)
  }
  const environments = plugin["environments"]
  if (!(Array.isArray(environments) && environments.length > 0 && environments.every((name) => ENVIRONMENTS.includes(name)))) {
    problems.push(`environments must be a non-empty list of "sandbox" and/or "production"`)
  }
  const capabilities = plugin["capabilities"] ?? {}
  if (!isRecord(capabilities)) {
    problems.push("capabilities must be an object of booleans")
  } else {
    for (const [name, value] of Object.entries(capabilities)) {
      if (!(name in CAPABILITY_METHODS)) problems.push(`capabilities.${name} is not a known capability`)
      else if (typeof value !== "boolean") problems.push(`capabilities.${name} must be true or false`)
      const method = CAPABILITY_METHODS[name as keyof PluginCapabilities]
      if (value === true && method !== undefined && typeof plugin[method] !== "function") problems.push(`capabilities.${name} is true but ${method} is missing`)
    }
    if (capabilities["partialRefunds"] === true && capabilities["refunds"] !== true) problems.push("capabilities.partialRefunds needs capabilities.refunds")
    const types = plugin["payoutDestinationTypes"]
    if (capabilities["payouts"] === true) {
      if (!(Array.isArray(types) && types.length > 0 && types.every((type) => PAYOUT_DESTINATION_TYPES.includes(type)))) {
        problems.push(`payoutDestinationTypes must be a non-empty list of ${PAYOUT_DESTINATION_TYPES.map((type) => JSON.stringify(type)).join(" and/or ")}`)
      }
    } else if (types !== undefined) {
      problems.push("payoutDestinationTypes needs capabilities.payouts")
    }
  }
  // The setup-only flow comes whole, and only with saved methods: half of it would strand a customer mid-way.
  const setupMethods = ["beginSetup", "handleSetupReturn"].filter((method) => plugin[method] !== undefined)
  if (setupMethods.length > 0) {
    if (setupMethods.length < 2 || setupMethods.some((method) => typeof plugin[method] !== "function")) problems.push("beginSetup and handleSetupReturn must both be functions")
    if (!isRecord(capabilities) || capabilities["savedMethods"] !== true) problems.push("beginSetup needs capabilities.savedMethods")
  }
  if (plugin["testMethod"] !== undefined) {
    if (typeof plugin["testMethod"] !== "function") problems.push("testMethod must be a function")
    if (!isRecord(capabilities) || capabilities["savedMethods"] !== true) problems.push("testMethod needs capabilities.savedMethods")
  }
  const secrets = plugin["secretConfigKeys"] ?? []
  if (!(Array.isArray(secrets) && secrets.every((key) => typeof key === "string" && key !== ""))) problems.push("secretConfigKeys must be a list of config field names")
  for (const method of ["parseConfig", "beginCheckout", "handleReturn"]) {
    if (typeof plugin[method] !== "function") problems.push(`${method} must be a function`)
  }
  return problems
}

/**
 * A plugin object checked before it is hosted, so a malformed module stops the start with one line
 * naming it instead of failing a customer's checkout later.
 */
export const checkPluginShape = (candidate: unknown): Either.Either<GatewayPluginDefinition, string> => {
  if (!isRecord(candidate)) return Either.left("it is not a plugin object")
  const problems = problemsOf(candidate)
  return problems.length === 0 ? Either.right(candidate as unknown as GatewayPluginDefinition) : Either.left(problems.join("; "))
}

/** The capabilities as the core reads them: every one present, false unless the plugin said true. */
export const capabilitiesOf = (plugin: GatewayPluginDefinition): PluginCapabilities => ({
  notifications: plugin.capabilities?.notifications === true,
  statusSync: plugin.capabilities?.statusSync === true,
  refunds: plugin.capabilities?.refunds === true,
  partialRefunds: plugin.capabilities?.partialRefunds === true,
  payouts: plugin.capabilities?.payouts === true,
  disputeEvidence: plugin.capabilities?.disputeEvidence === true,
  savedMethods: plugin.capabilities?.savedMethods === true
})
