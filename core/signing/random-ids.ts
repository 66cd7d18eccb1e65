import { randomBytes, randomUUID } from "node:crypto"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { Environment } from "../shared/environment.js"
import { CROCKFORD_ALPHABET, encodeCrockford, randomString } from "./random-text.js"

/**
 * The randomness port: core code draws ids and tokens from here, never from Math.random, so tests
 * can swap in a predictable source.
 *
 * Transaction id: `SANDBOX_` or `PRODUCTION_` + 26 Crockford base32 characters (130 random bits).
 * UUID: RFC 4122 version 4. Token: base64url (no padding) of `bytes` random bytes.
 */
export class Ids extends Context.Tag("merchant-payments/Ids")<
  Ids,
  {
    readonly transactionId: (environment: Environment) => Effect.Effect<string>
    readonly uuid: Effect.Effect<string>
    readonly token: (bytes: number) => Effect.Effect<string>
  }
>() {}

/** Characters of randomness in a transaction id: 26 × 5 bits = 130 bits. */
export const TRANSACTION_ID_CHARS = 26

const transactionIdPrefix = (environment: Environment): string =>
  environment === "sandbox" ? "SANDBOX_" : "PRODUCTION_"

/**
 * The live implementation on node:crypto. `token` with a byte count that is not a non-negative
 * integer dies with a defect: that is a programming error, not a recoverable failure.
 */
export const layer: Layer.Layer<Ids> = Layer.succeed(Ids, {
  transactionId: (environment) =>
    Effect.sync(() => transactionIdPrefix(environment) + randomString(CROCKFORD_ALPHABET, TRANSACTION_ID_CHARS)),
  uuid: Effect.sync(() => randomUUID()),
  token: (bytes) => Effect.sync(() => randomBytes(bytes).toString("base64url"))
})

/**
 * A deterministic implementation for tests. Each operation keeps its own counter, so the k-th call
 * (k = 1, 2, …) of an operation yields the value for n = seed + k regardless of other calls:
 *   transactionId  `SANDBOX_` / `PRODUCTION_` + n in Crockford base32, zero-padded to 26 characters
 *   uuid           `00000000-0000-4000-8000-` + n as 12 hex digits (still a well-formed v4 UUID)
 *   token(bytes)   base64url of `bytes` bytes holding n big-endian (high bytes zero)
 * Counters start afresh each time the layer is built.
 */
export const layerTest = (seed = 0): Layer.Layer<Ids> =>
  Layer.sync(Ids, () => {
    const counters = { transactionId: 0, uuid: 0, token: 0 }
    const next = (name: keyof typeof counters): bigint => BigInt(seed + ++counters[name])
    return {
      transactionId: (environment) =>
        Effect.sync(() => transactionIdPrefix(environment) + encodeCrockford(next("transactionId"), TRANSACTION_ID_CHARS)),
      uuid: Effect.sync(() => `00000000-0000-4000-8000-${next("uuid").toString(16).padStart(12, "0")}`),
      token: (bytes) =>
        Effect.sync(() => {
          const out = new Uint8Array(bytes)
          let n = next("token")
          for (let i = bytes - 1; i >= 0 && n > 0n; i--) {
            out[i] = Number(n & 0xffn)
            n >>= 8n
          }
          return Buffer.from(out).toString("base64url")
        })
    }
  })
