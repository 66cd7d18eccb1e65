import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type { MerchantScope } from "../../../core/merchants/merchant-scope.js"
import type { Environment } from "../../../core/shared/environment.js"
import { readRawBody } from "../request/request-body.js"
import { DashboardAnswer, htmlAnswer } from "./dashboard-response.js"
import { DashboardSettings } from "./dashboard-settings.js"
import { FORM_TOKEN_FIELD, formToken, formTokenValid } from "./form-token.js"
import { closedAccount, messagePage, type PageFrame } from "./layout.js"
import { dashboardPath, dashboardVisitor } from "./visitor.js"

/** The signed-in page's frame, given by the dashboard router to every page behind the sign-in. */
export class CurrentFrame extends Context.Tag("merchant-payments/http/dashboard/CurrentFrame")<CurrentFrame, PageFrame>() {}

/** The fields of the form being sent, given by the dashboard router once its token, and its sender, passed. */
export class SentForm extends Context.Tag("merchant-payments/http/dashboard/SentForm")<SentForm, URLSearchParams>() {}

/** The query of the request, for filters and paging. */
export const requestQuery = Effect.map(HttpServerRequest.HttpServerRequest, (request) => new URL(request.url, "http://dashboard.invalid").searchParams)

/** Production only for an approved merchant; anything else asked for is sandbox. */
const frameFor = (asked: string | null) =>
  Effect.gen(function*() {
    const settings = yield* DashboardSettings
    const visitor = yield* dashboardVisitor
    const environments: ReadonlyArray<Environment> = visitor.merchant.status === "approved" ? ["sandbox", "production"] : ["sandbox"]
    const environment = environments.find((candidate) => candidate === asked) ?? "sandbox"
    const frame: PageFrame = {
      home: yield* dashboardPath,
      visitor,
      environment,
      environments,
      formToken: formToken(settings.formKeys[0]!, visitor.boundTo)
    }
    return frame
  })

/** A signed-in page's frame, in the environment its query names. */
export const pageFrame = Effect.flatMap(requestQuery, (query) => frameFor(query.get("environment")))

/** The merchant and environment every query of the page is limited to. */
export const scopeOf = (frame: PageFrame): MerchantScope => ({ merchant: frame.visitor.merchant, environment: frame.environment })

/** A form's fields (URL-encoded body), or the page saying it could not be read. */
export const formBody = Effect.gen(function*() {
  const home = yield* dashboardPath
  const raw = yield* readRawBody.pipe(Effect.mapError((error) =>
    new DashboardAnswer(error._tag === "BodyTooLarge"
      ? htmlAnswer(413, messagePage(home, "Too much was sent", "The form was larger than the dashboard accepts."))
      : htmlAnswer(400, messagePage(home, "The form could not be read", "Go back and send it again.")))))
  return new URLSearchParams(new TextDecoder().decode(raw))
})

/** 403 for a form whose CSRF token is missing or not this visitor's. */
export const refuseForgedForm = (home: string) =>
  new DashboardAnswer(htmlAnswer(403, messagePage(home, "This form cannot be accepted", "It did not carry this session's form token. Reload the page and send it again.", {
    href: home,
    label: "Back to the dashboard"
  })))

/** Checks a posted form's token against what it must be bound to. */
export const checkFormToken = (form: URLSearchParams, boundTo: string) =>
  Effect.gen(function*() {
    const settings = yield* DashboardSettings
    if (!formTokenValid(settings.formKeys, boundTo, form.get(FORM_TOKEN_FIELD) ?? undefined)) {
      return yield* Effect.fail(refuseForgedForm(yield* dashboardPath))
    }
  })

/**
 * A signed-in form post whatever the merchant's standing (signing out): its fields, checked against
 * the visitor's form token, and the frame in the environment the form names.
 */
export const signedInForm = Effect.gen(function*() {
  const form = yield* formBody
  const frame = yield* frameFor(form.get("environment"))
  yield* checkFormToken(form, frame.visitor.boundTo)
  return { form, frame }
})

/**
 * A signed-in form that changes something: as signedInForm, and refused (403, a page saying why)
 * while the merchant's account is closed (suspended, rejected, disabled), whoever sends it: its
 * people may still sign in and read, as the API refuses its keys in both environments.
 */
export const postedForm = Effect.tap(signedInForm, ({ frame }) => {
  const closed = closedAccount(frame)
  return closed === undefined ? Effect.void : Effect.fail(new DashboardAnswer(htmlAnswer(403, messagePage(frame.home, "Nothing can be changed", closed, {
    href: frame.home,
    label: "Back to the dashboard"
  }))))
})

/** Only an owner changes anything; a viewer's post (which no page offers) is refused. */
export const requireOwner = (frame: PageFrame) =>
  frame.visitor.role === "owner"
    ? Effect.void
    : Effect.fail(new DashboardAnswer(htmlAnswer(403, messagePage(frame.home, "Owners only", "Your role can look, not change. Ask an owner of this account.", {
      href: frame.home,
      label: "Back to the dashboard"
    }))))
