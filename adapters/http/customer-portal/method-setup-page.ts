import type { Environment } from "../../../core/shared/environment.js"
import { page } from "../checkout/html.js"
import type { Locale } from "../checkout/locale.js"
import { type Html, html, raw } from "../pages/html.js"
import { portalMessagesFor } from "./portal-messages.js"

export interface MethodSetupView {
  readonly locale: Locale
  readonly environment: Environment
  readonly merchantName: string
  /** The gateway's name, as the customer met it at checkout. */
  readonly gatewayName: string
  /** The portal's list, with the page's `?locale=`: the way out without changing anything. */
  readonly backHref: string
}

/**
 * A gateway plugin's setup form (a new method with nothing to pay) inside the kit's page, in the
 * customer's language. As at checkout, the fragment is trusted plugin output: the one `raw` of a value.
 */
export const methodSetupPage = (view: MethodSetupView, fragment: string): Html => {
  const t = portalMessagesFor(view.locale)
  const banner = view.environment === "sandbox" ? html`<div class="banner" role="status">${t.testMode}</div>` : ""
  return page(view.locale, `${t.replaceMethod} · ${view.merchantName}`, html`${banner}<div class="card">
<p class="merchant">${view.merchantName} · ${view.gatewayName}</p>
<h1>${t.replaceMethod}</h1>
<p class="muted" data-testid="setup-explained">${t.replaceMethodExplained}</p>${raw(fragment)}
<a class="back" href="${view.backHref}" data-testid="back-to-portal">${t.allSubscriptions}</a></div>`)
}
