import { constantTimeEqualHex, hmacSha256Hex } from "../../../core/signing/hmac.js"

/** The three endings the simulator offers, as they travel in the `outcome` field. */
export const SANDBOX_OUTCOMES = ["paid", "declined", "cancelled"] as const
export type SandboxOutcome = (typeof SANDBOX_OUTCOMES)[number]

export const isSandboxOutcome = (value: string): value is SandboxOutcome => (SANDBOX_OUTCOMES as ReadonlyArray<string>).includes(value)

export interface SignedFacts {
  readonly trxId: string
  readonly outcome: SandboxOutcome
  /** The payment's exact amount as it crosses the plugin boundary ("12.50"). */
  readonly amount: string
  readonly currency: string
  /** The test card paid with, to be saved (a subscription's checkout); signed with the rest. */
  readonly card?: string
}

/**
 * The signed text binds the outcome to one payment's id, exact amount and currency, so a form
 * cannot be replayed against another payment or edited to turn a decline into a payment.
 */
const signedText = (facts: SignedFacts) =>
  `${facts.trxId}.${facts.outcome}.${facts.amount}.${facts.currency}${facts.card === undefined ? "" : `.card=${facts.card}`}`

export const signOutcome = (secret: Uint8Array, facts: SignedFacts): string => hmacSha256Hex(secret, signedText(facts))

/** Constant time, and false (never a throw) for anything that is not hex of the right length. */
export const outcomeSignatureMatches = (secret: Uint8Array, facts: SignedFacts, signature: string): boolean =>
  constantTimeEqualHex(signOutcome(secret, facts), signature)

/** A setup session's two endings: a test card saved, or the customer gave up. */
export type SandboxSetupOutcome = "saved" | "cancelled"

export interface SignedSetup {
  readonly setupId: string
  readonly outcome: SandboxSetupOutcome
  readonly card?: string
}

// Its own prefix: a setup's signature can never pass for a payment's, nor the reverse.
const signedSetupText = (facts: SignedSetup) => `setup:${facts.setupId}.${facts.outcome}${facts.card === undefined ? "" : `.card=${facts.card}`}`

export const signSetup = (secret: Uint8Array, facts: SignedSetup): string => hmacSha256Hex(secret, signedSetupText(facts))

export const setupSignatureMatches = (secret: Uint8Array, facts: SignedSetup, signature: string): boolean =>
  constantTimeEqualHex(signSetup(secret, facts), signature)
