import type { SavedMethodChargeReport, SavedMethodReport } from "../../../core/gateways/plugin-saved-methods.js"

/**
 * The simulator's test cards, offered at a subscription's checkout to be saved for renewals. Each
 * pays the checkout itself; they differ in how later off-session charges (renewals) go, so a test
 * can walk every branch of renewal retries. Documented in docs/plugins.md.
 */
export const SANDBOX_CARDS = {
  /** Every off-session charge is paid. */
  success: { last4: "4242", label: "Succeeds" },
  /** Every off-session charge is declined, softly (insufficient funds): retried on the schedule. */
  decline: { last4: "9995", label: "Declines (insufficient funds)" },
  /** Every off-session charge is declined hard (card reported lost): never retried. */
  hard_decline: { last4: "9987", label: "Hard decline (lost card)" },
  /** Every off-session charge needs the customer to authenticate: never retried. */
  authentication_required: { last4: "3184", label: "Needs authentication" },
  /** The first two off-session charges are declined softly, then every one is paid. */
  declines_twice: { last4: "0341", label: "Declines twice, then succeeds" }
} as const

export type SandboxCard = keyof typeof SANDBOX_CARDS

export const isSandboxCard = (value: string): value is SandboxCard => Object.hasOwn(SANDBOX_CARDS, value)

const REFERENCE = /^sbx_pm_([a-z_]+)_(.+)$/

/** A saved test card's reference: its kind, and the payment that saved it (so each saving counts alone). */
export const savedCardReport = (card: SandboxCard, trxId: string): SavedMethodReport => ({
  reference: `sbx_pm_${card}_${trxId}`,
  brand: "visa",
  last4: SANDBOX_CARDS[card].last4,
  expMonth: 12,
  expYear: 2034
})

export const cardOfReference = (reference: string): SandboxCard | undefined => {
  const kind = REFERENCE.exec(reference)?.[1]
  return kind !== undefined && isSandboxCard(kind) ? kind : undefined
}

/**
 * The simulated issuer of saved cards: how many charges each saved card has seen, and the answer
 * given to each idempotency key, so a retried attempt (same key) gets the same answer and is never
 * counted twice. In memory: a restarted host forgets, which a simulator may.
 */
export const makeSandboxIssuer = () => {
  const charges = new Map<string, number>()
  const answers = new Map<string, SavedMethodChargeReport>()
  const decide = (card: SandboxCard, reference: string, key: string): SavedMethodChargeReport => {
    const seen = (charges.get(reference) ?? 0) + 1
    charges.set(reference, seen)
    const paid: SavedMethodChargeReport = { status: "paid", gatewayReference: `sbx_ch_${key}` }
    switch (card) {
      case "success":
        return paid
      case "decline":
        return { status: "declined", message: "Your card has insufficient funds." }
      case "hard_decline":
        return { status: "hard_declined", message: "Your card was reported lost." }
      case "authentication_required":
        return { status: "authentication_required", message: "Your bank requires you to authenticate this payment." }
      case "declines_twice":
        return seen <= 2 ? { status: "declined", message: "Your card has insufficient funds." } : paid
    }
  }
  return {
    charge: (reference: string, idempotencyKey: string): SavedMethodChargeReport => {
      const card = cardOfReference(reference)
      if (card === undefined) return { status: "hard_declined", message: "No such sandbox card was saved." }
      const known = answers.get(idempotencyKey)
      if (known !== undefined) return known
      const answer = decide(card, reference, idempotencyKey)
      answers.set(idempotencyKey, answer)
      return answer
    }
  }
}
