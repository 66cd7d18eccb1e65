import * as Effect from "effect/Effect"
import { listMerchantUsers } from "../../../../core/merchant-users/user-admin.js"
import { htmlAnswer } from "../dashboard-response.js"
import { dashboardRoute, HTML_PAGE } from "../page-declaration.js"
import { CurrentFrame } from "../page-frame.js"
import { teamPage } from "./team-page.js"

const show = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  return htmlAnswer(200, teamPage({ frame, users: yield* listMerchantUsers(frame.visitor.merchant.id) }))
})

export const dashboardTeamPages = [
  dashboardRoute({
    method: "get", path: "/dashboard/team", operationId: "dashboardTeam", view: "owner",
    summary: "The people who can sign in to the merchant's account, their roles and last sign-in (owners)",
    success: { status: 200, description: "The page.", contentType: HTML_PAGE },
    handler: show
  })
] as const
