import * as HttpRouter from "@effect/platform/HttpRouter"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { Authenticator } from "../../../core/merchants/authenticator.js"
import { CheckoutConfigCache } from "../../../core/payments/checkout-config.js"
import { Transactor } from "../../../core/shared/transactor.js"
import { type PageHandler, pageRouter } from "../pages/page-route.js"
import { recordDashboardAction } from "./dashboard-audit.js"
import { answerWith, type DashboardAnswer } from "./dashboard-response.js"
import type { PageFrame } from "./layout.js"
import type { AuditedAs, DashboardPage } from "./page-declaration.js"
import { CurrentFrame, pageFrame, postedForm, requireOwner, SentForm, signedInForm } from "./page-frame.js"
import { PreSession, visitorForm } from "./pre-session.js"

type Response = HttpServerResponse.HttpServerResponse

/** What the router gives a page's handler: the checks it ran found these. */
type Given = CurrentFrame | SentForm | PreSession

/** An owner's form answered 4xx or 5xx: its change is rolled back, and the answer sent as it is. */
class Refused {
  readonly _tag = "Refused"
  constructor(readonly response: Response) {}
}

const pathParams = Effect.map(HttpRouter.params, (params) => {
  const named: Record<string, string> = {}
  for (const [name, value] of Object.entries(params)) if (value !== undefined) named[name] = value
  return named
})

/**
 * An owner's change, never answered as done without its audit entry: the change and its entry share
 * one transaction (or, for a form that commits as it goes, the entry follows it). Any answer of 400
 * or more rolls the change back; a refusal (4xx) is then recorded, a failure (5xx) only logged. A
 * request that read the store between a use case's own cache invalidation and the commit would keep
 * the old merchant or checkout configuration cached, and a read inside a run that was undone (a
 * refusal, a lost race) may have cached what never committed: both are cleared once it is over, whatever its end.
 */
const auditedChange = <E, R>(frame: PageFrame, page: { readonly path: string; readonly commitsAsItGoes?: true }, audit: AuditedAs, handler: Effect.Effect<Response, E, R>) =>
  Effect.gen(function*() {
    const params = yield* pathParams
    const record = (status: number) =>
      recordDashboardAction(frame, { operation: audit.operation, route: page.path, pathParams: params, status, fields: audit.fields })
    const commitsAsItGoes = page.commitsAsItGoes === true
    const change = Effect.gen(function*() {
      const response = yield* handler
      if (response.status >= 400) return yield* Effect.fail(new Refused(response))
      if (!commitsAsItGoes) yield* record(response.status)
      return response
    })
    const { withTransaction } = yield* Transactor
    const clearCaches = Effect.zipRight((yield* Authenticator).invalidate, (yield* CheckoutConfigCache).invalidate)
    const response = yield* (commitsAsItGoes ? change : withTransaction(change)).pipe(
      Effect.ensuring(clearCaches),
      Effect.catchIf((error): error is Refused => error instanceof Refused, ({ response }) =>
        response.status < 500 ? Effect.as(record(response.status), response) : Effect.succeed(response))
    )
    if (commitsAsItGoes && response.status < 400) yield* record(response.status)
    return response
  })

/**
 * The page's handler behind what its declaration says: the visitor signed in (else to the sign-in
 * page), the form's token bound to its sender, owners only where it says so, an account open to
 * changes for an owner's form, and an owner's change audited in its own transaction. A handler's
 * DashboardAnswer (a redirect, a page saying why) is its answer, before the change is judged.
 */
const guarded = <E, R>(page: DashboardPage<Effect.Effect<Response, E, R>>) => {
  const handler = answerWith(page.handler)
  if (page.method === "get") {
    if (page.view === "anyone") return handler
    return answerWith(Effect.gen(function*() {
      const frame = yield* pageFrame
      if (page.view === "owner") yield* requireOwner(frame)
      return yield* Effect.provideService(handler, CurrentFrame, frame)
    }))
  }
  switch (page.form) {
    case "visitor":
      return answerWith(Effect.flatMap(visitorForm, ({ form, pre }) =>
        handler.pipe(Effect.provideService(SentForm, form), Effect.provideService(PreSession, pre))))
    case "member":
      return answerWith(Effect.flatMap(signedInForm, ({ form, frame }) =>
        handler.pipe(Effect.provideService(SentForm, form), Effect.provideService(CurrentFrame, frame))))
    case "owner": {
      const audit = page.audit
      return answerWith(Effect.gen(function*() {
        const { form, frame } = yield* postedForm
        yield* requireOwner(frame)
        const run = handler.pipe(Effect.provideService(SentForm, form), Effect.provideService(CurrentFrame, frame))
        return yield* (audit === "reads only" ? run : auditedChange(frame, page, audit, run))
      }))
    }
  }
}

type Guarded<H extends PageHandler> = ReturnType<typeof guarded<Effect.Effect.Error<H>, Effect.Effect.Context<H>>>

/** Every page as a route of one router, each behind the checks its declaration names. */
export const dashboardRouter = <const Pages extends ReadonlyArray<DashboardPage>>(pages: Pages) =>
  pageRouter(pages.map((page) => ({ ...page, handler: guarded(page) }))) as unknown as HttpRouter.HttpRouter<
    Exclude<Effect.Effect.Error<Guarded<Pages[number]["handler"]>>, DashboardAnswer | Refused>,
    HttpRouter.HttpRouter.ExcludeProvided<Exclude<Effect.Effect.Context<Guarded<Pages[number]["handler"]>>, Given>>
  >
