import { html, joinHtml } from "../../http/pages/html.js"
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
    html`</section>`
  ], "\n").markup
