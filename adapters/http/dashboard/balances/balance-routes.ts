import * as Effect from "effect/Effect"
import { merchantBalanceSheet } from "../../../../core/balances/balance-sheet.js"
import { callerPayoutSettings } from "../../../../core/balances/payout-settings-admin.js"
import { htmlAnswer } from "../dashboard-response.js"
import { dashboardRoute, HTML_PAGE } from "../page-declaration.js"
import { CurrentFrame, scopeOf } from "../page-frame.js"
import { moneyText } from "../page-text.js"
import { balancePage } from "./balance-page.js"

/** The figures of GET /api/v1/balances and the settings of GET /api/v1/payout-settings, from the same use cases. */
const balances = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const scope = scopeOf(frame)
  return htmlAnswer(200, balancePage({
    frame,
    money: yield* moneyText,
    sheet: yield* merchantBalanceSheet(scope),
    settings: yield* callerPayoutSettings(scope)
  }))
})

export const dashboardBalancePages = [
  dashboardRoute({
    method: "get", path: "/dashboard/balances", operationId: "dashboardBalances", view: "member",
    summary: "Each currency's balance split into available, pending (with when it becomes available), reserved and in payouts, and the payout delay and reserve in effect",
    success: { status: 200, description: "The page.", contentType: HTML_PAGE },
    handler: balances
  })
] as const
