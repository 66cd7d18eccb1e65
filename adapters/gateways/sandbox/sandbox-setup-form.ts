import { html, joinHtml } from "../../http/pages/html.js"
import { SANDBOX_CARDS, type SandboxCard } from "./sandbox-cards.js"

export interface SandboxSetupFormInput {
  readonly setupId: string
  readonly returnUrl: string
  /** The gateway's configured label, as on the checkout form. */
  readonly label: string | undefined
  readonly savedSignatureFor: (card: SandboxCard) => string
  readonly cancelSignature: string
}

const setupForm = (input: SandboxSetupFormInput, fields: ReadonlyArray<readonly [string, string]>, button: ReturnType<typeof html>) =>
  joinHtml([
    html`<form method="post" action="${input.returnUrl}" class="sandbox-outcome">`,
    html`<input type="hidden" name="setup_id" value="${input.setupId}">`,
    ...fields.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`),
    button,
    html`</form>`
  ], "\n")

/**
 * The simulator's setup page fragment: the checkout's test cards (sandbox-cards.ts), each saved for
 * renewals by its own signed form, and a way to give up. Nothing is charged, so no amount is shown.
 * Plain HTML, no script, in the kit's page.
 */
export const renderSandboxSetupForm = (input: SandboxSetupFormInput): string =>
  joinHtml([
    html`<section class="sandbox-checkout" aria-label="Sandbox payment method setup">`,
    ...(input.label === undefined ? [] : [html`<h2 class="sandbox-label">${input.label}</h2>`]),
    html`<p class="sandbox-note">Sandbox simulator: no money moves. Choose the test card to keep for renewals (how its later charges go):</p>`,
    html`<div class="sandbox-outcomes sandbox-cards">`,
    ...(Object.keys(SANDBOX_CARDS) as Array<SandboxCard>).map((card) =>
      setupForm(input, [["outcome", "saved"], ["card", card], ["signature", input.savedSignatureFor(card)]],
        html`<button type="submit" class="secondary sandbox-card" data-testid="save-card-${card}">Save card •••• ${SANDBOX_CARDS[card].last4}: ${SANDBOX_CARDS[card].label}</button>`)),
    html`</div>`,
    html`<div class="sandbox-outcomes">`,
    setupForm(input, [["outcome", "cancelled"], ["signature", input.cancelSignature]],
      html`<button type="submit" class="secondary sandbox-cancel" data-testid="cancel-setup">Cancel</button>`),
    html`</div>`,
    html`</section>`
  ], "\n").markup
