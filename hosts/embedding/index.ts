// merchant-payments: the kit for a platform's own Node app, and the options the standalone host reads from its environment.
// The functions load the kit on their first call (lazy-entry.ts); importing this entry loads only its options and errors.
export { AdminApiError } from "./admin-api-error.js"
export type { AdminApi, AdminGateway, AdminMerchant, AdminSettings, AdminWallet, IssuedCredentials } from "./in-process-admin.js"
export { configFromEnv, createMerchantPayments } from "./lazy-entry.js"
export type { MerchantPayments } from "./create-merchant-payments.js"
export type { NodeHandler } from "./node-handler.js"
export { MerchantPaymentsConfigError } from "./option-checks.js"
export type { MerchantPaymentsOptions } from "./options.js"
export type { PlatformIdentity, PlatformSignIn } from "../../adapters/http/dashboard/dashboard-settings.js"
export type { TracingOptions } from "./tracing-options.js"
export { definePlugin, type GatewayPluginDefinition } from "../../core/gateways/define-plugin.js"
