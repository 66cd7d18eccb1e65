import type { SandboxOutcome } from "./sandbox-signature.js"

const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }

/** Safe in text and in quoted attribute values alike, so one function covers every interpolation. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => ENTITIES[character]!)

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
  [
    `<form method="post" action="${escapeHtml(input.returnUrl)}" class="sandbox-outcome">`,
    `<input type="hidden" name="trx_id" value="${escapeHtml(input.trxId)}">`,
    `<input type="hidden" name="outcome" value="${button.outcome}">`,
    `<input type="hidden" name="signature" value="${escapeHtml(input.signatureFor(button.outcome))}">`,
    `<button type="submit" class="${button.kind} sandbox-${button.testId}" data-testid="${button.testId}">${button.label}</button>`,
    `</form>`
  ].join("\n")

/**
 * The simulator's page fragment: one small form per outcome, each carrying its own signature, so
 * the signed outcome is fixed by the form rather than by which button was pressed. Plain HTML, no
 * script: the kit's page styles it, and it works with any browser, keyboard or screen reader.
 */
export const renderSandboxForm = (input: SandboxFormInput): string =>
  [
    `<section class="sandbox-checkout" aria-label="Sandbox payment simulator">`,
    input.label === undefined ? "" : `<h2 class="sandbox-label">${escapeHtml(input.label)}</h2>`,
    `<p class="sandbox-note">Sandbox simulator: no money moves. Choose how the payment of ` +
    `<strong>${escapeHtml(input.displayAmount)} ${escapeHtml(input.currency)}</strong> ends.</p>`,
    // Monospace and small so it fits a phone; if it still cannot, it breaks after the prefix only.
    `<p class="sandbox-trx">Transaction <code class="trx">${escapeHtml(input.trxId).replace("_", "_<wbr>")}</code></p>`,
    `<div class="sandbox-outcomes">`,
    ...BUTTONS.map((button) => outcomeForm(input, button)),
    `</div>`,
    `</section>`
  ].filter((line) => line !== "").join("\n")
