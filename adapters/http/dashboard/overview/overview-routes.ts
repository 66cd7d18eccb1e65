import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { overview } from "../../../../core/merchants/merchant-overview.js"
import { WalletId } from "../../../../core/shared/ids.js"
import { merchantBalances } from "../../../../core/wallets/merchant-balances.js"
import { DEFAULT_STATEMENT_LIMIT, walletStatement } from "../../../../core/wallets/statement.js"
import { statementCsv } from "../../../../core/wallets/statement-csv.js"
import { DASHBOARD_HEADERS, DashboardAnswer, htmlAnswer } from "../dashboard-response.js"
import { linkTo, messagePage, type PageFrame } from "../layout.js"
import { overviewPage } from "./overview-page.js"
import { CurrentFrame, requestQuery, scopeOf } from "../page-frame.js"
import { moneyText } from "../page-text.js"
import { statementPage } from "./statement-page.js"
import { dashboardRoute, HTML_PAGE, pathText } from "../page-declaration.js"
import { WHOLE_ID } from "../../request/path-params.js"

const home = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  return htmlAnswer(200, overviewPage({ frame, money: yield* moneyText, figures: yield* overview(scopeOf(frame)) }))
})


const walletMissing = (frame: PageFrame) =>
  new DashboardAnswer(htmlAnswer(404, messagePage(frame.home, "No such wallet", "There is no wallet with that id here.", { href: linkTo(frame, "/statements"), label: "Statements" })))

/** A wallet's statement page: the one asked for, else the environment's first by currency. */
const statements = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const scope = scopeOf(frame)
  const query = yield* requestQuery
  const wallets = [...yield* merchantBalances(scope)]
  const asked = query.get("wallet")
  if (asked !== null && !WHOLE_ID.test(asked)) return yield* Effect.fail(walletMissing(frame))
  const walletId = asked === null ? wallets[0]?.id : WalletId(Number(asked))
  const money = yield* moneyText
  if (walletId === undefined) return htmlAnswer(200, statementPage({ frame, money, wallets, statement: undefined, next: undefined, first: undefined }))
  const cursor = query.get("cursor") ?? undefined
  const statement = yield* walletStatement(scope, walletId, { limit: DEFAULT_STATEMENT_LIMIT, ...(cursor !== undefined && cursor !== "" ? { cursor } : {}) }).pipe(
    Effect.catchTags({
      WalletNotFound: () => Effect.fail(walletMissing(frame)),
      ValidationFailed: () => Effect.fail(walletMissing(frame))
    })
  )
  const wallet = { wallet: String(statement.wallet.id) }
  return htmlAnswer(200, statementPage({
    frame,
    money,
    wallets,
    statement,
    next: statement.nextCursor === null ? undefined : linkTo(frame, "/statements", { ...wallet, cursor: statement.nextCursor }),
    first: cursor === undefined ? undefined : linkTo(frame, "/statements", wallet)
  }))
})

/** The whole ledger of one wallet as CSV, streamed in batches: constant memory whatever its length. */
const csv = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const text = (yield* HttpRouter.params)["wallet_id"] ?? ""
  if (!WHOLE_ID.test(text)) return yield* Effect.fail(walletMissing(frame))
  const lines = yield* statementCsv(scopeOf(frame), WalletId(Number(text))).pipe(Effect.catchTag("WalletNotFound", () => Effect.fail(walletMissing(frame))))
  return HttpServerResponse.stream(lines.pipe(Stream.encodeText), {
    contentType: "text/csv; charset=utf-8",
    headers: { ...DASHBOARD_HEADERS, "content-disposition": `attachment; filename="statement-${text}-${frame.environment}.csv"` }
  })
})

export const dashboardOverviewPages = [
  dashboardRoute({
    method: "get", path: "/dashboard", operationId: "dashboardOverview", view: "member",
    summary: "Overview: balances, today's and the last seven days' payments, failing webhooks",
    description: "`?environment=sandbox|production` on every page (production for an approved merchant only).",
    success: { status: 200, description: "The page.", contentType: HTML_PAGE },
    handler: home
  }),
  dashboardRoute({
    method: "get", path: "/dashboard/statements", operationId: "dashboardStatements", view: "member",
    summary: "A wallet's ledger with the balance after each entry",
    description: "`wallet` (its id; the first by currency otherwise) and `cursor` for older entries.",
    success: { status: 200, description: "The page.", contentType: HTML_PAGE },
    others: [{ status: 404, description: "No such wallet here.", contentType: HTML_PAGE }],
    handler: statements
  }),
  dashboardRoute({
    method: "get", path: "/dashboard/statements/{wallet_id}.csv", operationId: "dashboardStatementCsv", view: "member",
    summary: "Every entry of a wallet as CSV, streamed",
    parameters: [pathText("wallet_id", "The wallet's id.")],
    success: { status: 200, description: "RFC 4180 CSV, oldest entry first.", contentType: "text/csv" },
    others: [{ status: 404, description: "No such wallet here.", contentType: HTML_PAGE }],
    handler: csv
  })
] as const
