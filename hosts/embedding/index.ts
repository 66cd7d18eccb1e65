// merchant-payments: the kit for a platform's own Node app, and the options the standalone host reads from its environment.
export { AdminApiError, type AdminApi, type AdminGateway, type AdminMerchant, type AdminSettings, type AdminWallet, type IssuedCredentials } from "./in-process-admin.js"
export { configFromEnv } from "./config-from-env.js"
export { createMerchantPayments, type MerchantPayments } from "./create-merchant-payments.js"
export type { NodeHandler } from "./node-handler.js"
export { MerchantPaymentsConfigError, type MerchantPaymentsOptions } from "./options.js"
export type { PlatformIdentity, PlatformSignIn } from "../../adapters/http/dashboard/dashboard-settings.js"
export type { TracingOptions } from "./tracing-options.js"
export { definePlugin, type GatewayPluginDefinition } from "../../core/gateways/define-plugin.js"
