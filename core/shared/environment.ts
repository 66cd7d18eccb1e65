import * as Schema from "effect/Schema"

/** The two isolated environments: each has its own credentials, wallets and records. */
export const Environment = Schema.Literal("sandbox", "production")
export type Environment = typeof Environment.Type

export const environments: ReadonlyArray<Environment> = ["sandbox", "production"]

/** Sandbox credentials carry this prefix; production credentials carry none (spec 2.1, 5.2). */
export const SANDBOX_KEY_PREFIX = "test_"
