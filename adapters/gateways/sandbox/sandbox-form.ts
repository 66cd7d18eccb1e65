import { html, joinHtml } from "../../http/pages/html.js"
import { SANDBOX_CARDS, type SandboxCard } from "./sandbox-cards.js"
import type { SandboxOutcome } from "./sandbox-signature.js"

// `primary` and `secondary` are the kit page's button classes: Pay is the action, the others are outlined.
const BUTTONS: ReadonlyArray<{ readonly outcome: SandboxOutcome; readonly label: string; readonly testId: string; readonly kind: string }> = [
  { outcome: "paid", label: "Pay", testId: "pay", kind: "primary" },
  { outcome: "declined", label: "Decline", testId: "decline", kind: "secondary" },
  { outcome: "cancelled", label: "Cancel", testId: "cancel", kind: "secondary" }
]

export interface SandboxFormInput {
  readonly trxId: string
  readonly displayAmount: string
  readonly currency: string
  readonly returnUrl: string
  /** The gateway's configured label, shown so an operator can tell several sandbox gateways apart. */
  readonly label: string | undefined
  readonly signatureFor: (outcome: SandboxOutcome) => string
  /** Set when the checkout saves the method (a subscription's): one Pay button per test card. */
  readonly cardSignatureFor?: ((card: SandboxCard) => string) | undefined
}

const cardForm = (input: SandboxFormInput, card: SandboxCard, signature: string) =>
  joinHtml([
    html`<form method="post" action="${input.returnUrl}" class="sandbox-outcome">`,
    html`<input type="hidden" name="trx_id" value="${input.trxId}">`,
    html`<input type="hidden" name="outcome" value="paid">`,
    html`<input type="hidden" name="card" value="${card}">`,
    html`<input type="hidden" name="signature" value="${signature}">`,
    html`<button type="submit" class="secondary sandbox-card" data-testid="pay-card-${card}">Pay with card •••• ${SANDBOX_CARDS[card].last4}: ${SANDBOX_CARDS[card].label}</button>`,
    html`</form>`
  ], "\n")

/** The test cards to pay and save with, when the checkout saves the method. */
const cardForms = (input: SandboxFormInput) => {
  const signatureFor = input.cardSignatureFor
  if (signatureFor === undefined) return []
  return [
    html`<p class="sandbox-note">Or pay with a test card saved for renewals (how its later charges go):</p>`,
    html`<div class="sandbox-outcomes sandbox-cards">`,
    ...(Object.keys(SANDBOX_CARDS) as Array<SandboxCard>).map((card) => cardForm(input, card, signatureFor(card))),
    html`</div>`
  ]
}

const outcomeForm = (input: SandboxFormInput, button: (typeof BUTTONS)[number]) =>
  joinHtml([
    html`<form method="post" action="${input.returnUrl}" class="sandbox-outcome">`,
    html`<input type="hidden" name="trx_id" value="${input.trxId}">`,
    html`<input type="hidden" name="outcome" value="${button.outcome}">`,
    html`<input type="hidden" name="signature" value="${input.signatureFor(button.outcome)}">`,
    html`<button type="submit" class="${button.kind} sandbox-${button.testId}" data-testid="${button.testId}">${button.label}</button>`,
    html`</form>`
  ], "\n")

/** The id may break after its environment prefix only (`SANDBOX_<wbr>...`): a phone fits the rest. */
const breakableTrx = (trxId: string) => {
  const at = trxId.indexOf("_")
  return at < 0 ? html`${trxId}` : html`${trxId.slice(0, at)}_<wbr>${trxId.slice(at + 1)}`
}

/**
 * The simulator's page fragment: one small form per outcome, each carrying its own signature, so
 * the signed outcome is fixed by the form rather than by which button was pressed. Plain HTML, no
 * script: the kit's page styles it, and it works with any browser, keyboard or screen reader.
 */
export const renderSandboxForm = (input: SandboxFormInput): string =>
  joinHtml([
    html`<section class="sandbox-checkout" aria-label="Sandbox payment simulator">`,
    ...(input.label === undefined ? [] : [html`<h2 class="sandbox-label">${input.label}</h2>`]),
    html`<p class="sandbox-note">Sandbox simulator: no money moves. Choose how the payment of <strong>${input.displayAmount} ${input.currency}</strong> ends.</p>`,
    // Monospace and small so it fits a phone; if it still cannot, it breaks after the prefix only.
    html`<p class="sandbox-trx">Transaction <code class="trx">${breakableTrx(input.trxId)}</code></p>`,
    html`<div class="sandbox-outcomes">`,
    ...BUTTONS.map((button) => outcomeForm(input, button)),
    html`</div>`,
    ...cardForms(input),
    html`</section>`
  ], "\n").markup
