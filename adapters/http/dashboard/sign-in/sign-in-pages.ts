import { html } from "../../pages/html.js"
import { FORM_TOKEN_FIELD } from "../form-token.js"
import { plainPage } from "../layout.js"
import { noticeBox, problemBox } from "../page-parts.js"


export interface SignInView {
  readonly home: string
  readonly formToken: string
  readonly next: string | undefined
  readonly email?: string
  readonly problem?: string
  readonly notice?: string
}

/** The sign-in form: inputs `email` and `password`, posted back to itself. */
export const signInPage = (view: SignInView) =>
  plainPage(view.home, "Sign in", html`${noticeBox(view.notice)}${problemBox(view.problem)}<form class="card" method="post" action="${view.home}/login">
<input type="hidden" name="${FORM_TOKEN_FIELD}" value="${view.formToken}">${view.next === undefined ? "" : html`<input type="hidden" name="next" value="${view.next}">`}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${view.email ?? ""}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024">
<button type="submit" class="primary">Sign in</button>
</form>`)

export interface SetPasswordView {
  readonly home: string
  readonly action: string
  readonly formToken: string
  readonly email: string
  readonly problem?: string
}

/** The one-time link's page: a new password of at least 12 characters. */
export const setPasswordPage = (view: SetPasswordView) =>
  plainPage(view.home, "Choose your password", html`${problemBox(view.problem)}<form class="card" method="post" action="${view.action}">
<input type="hidden" name="${FORM_TOKEN_FIELD}" value="${view.formToken}">
<label for="username">Email</label><input id="username" name="username" type="email" autocomplete="username" value="${view.email}" readonly>
<label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="12" maxlength="1024" aria-describedby="password-rule">
<p id="password-rule" class="muted">At least 12 characters; a passphrase of a few words is easiest to remember.</p>
<button type="submit" class="primary">Set password</button>
</form>`)
