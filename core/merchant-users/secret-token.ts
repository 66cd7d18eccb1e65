import * as Effect from "effect/Effect"
import { sha256Hex } from "../signing/hmac.js"
import { Ids } from "../signing/random-ids.js"

/** 256 random bits: a token nobody guesses, so a plain hash of it is all the store needs. */
const TOKEN_BYTES = 32

/** A fresh bearer token (session cookie, set-password link): base64url of 32 random bytes. */
export const newSecretToken = Effect.flatMap(Ids, (ids) => ids.token(TOKEN_BYTES))

/**
 * What the store keeps of a token, and looks it up by: its SHA-256 as hex. No salt or slow hash is
 * needed (there is nothing to brute-force in 256 random bits), and lookup by hash stays possible.
 */
export const tokenHash = (token: string): string => sha256Hex(token)
