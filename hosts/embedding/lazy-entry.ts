import type * as ConfigFromEnv from "./config-from-env.js"
import type * as CreateMerchantPayments from "./create-merchant-payments.js"

/*
 * The package entry's two functions, loading what they run on their first call rather than with the
 * entry: importing merchant-payments costs an app little (its options and errors), and the kit itself
 * (the HTTP app, the store, the jobs) loads when the app creates it. Both are async already, so a
 * caller sees no difference; an error either throws is the one the module it loads throws.
 */

/**
 * The kit for a platform's own Node app. Builds the store (migrating it), the plugins (refusing one it
 * cannot host) and the background jobs, then hands back a handler.
 */
export const createMerchantPayments: typeof CreateMerchantPayments.createMerchantPayments = async (options) =>
  (await import("./create-merchant-payments.js")).createMerchantPayments(options)

/**
 * `createMerchantPayments(await configFromEnv(process.env))`: the variables the README documents for
 * the standalone host (DATABASE_URL, MASTER_KEY, ADMIN_TOKEN, BASE_URL, BASE_PATH, GATEWAY_PLUGINS...).
 */
export const configFromEnv: typeof ConfigFromEnv.configFromEnv = async (env, options) =>
  (await import("./config-from-env.js")).configFromEnv(env, options)
