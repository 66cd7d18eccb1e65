import { createHash } from "node:crypto"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { DASHBOARD_SCRIPT, DASHBOARD_STYLESHEET } from "../dashboard/dashboard-style.js"
import { dashboardPage } from "../dashboard/dashboard-page.js"

// The dashboard's stylesheet and enhancement script, served by the kit itself: its Content-Security-
// Policy allows no inline style or script and nothing from elsewhere. Revalidated by ETag, so a new
// release's look shows at once and an unchanged one costs a 304.

const asset = (text: string, contentType: string) => {
  const etag = `"${createHash("sha256").update(text).digest("base64url").slice(0, 22)}"`
  return Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
    request.headers["if-none-match"] === etag
      ? HttpServerResponse.empty({ status: 304, headers: { etag } })
      : HttpServerResponse.text(text, {
        contentType,
        headers: { etag, "cache-control": "no-cache", "x-content-type-options": "nosniff" }
      }))
}

export const dashboardAssetPages = [
  dashboardPage({
    method: "get", path: "/dashboard/assets/dashboard.css", operationId: "dashboardStylesheet", signedIn: false,
    summary: "The dashboard's stylesheet",
    success: { status: 200, description: "CSS; 304 when the ETag matches.", contentType: "text/css" },
    handler: asset(DASHBOARD_STYLESHEET, "text/css; charset=utf-8")
  }),
  dashboardPage({
    method: "get", path: "/dashboard/assets/dashboard.js", operationId: "dashboardScript", signedIn: false,
    summary: "The dashboard's one enhancement script (every page works without it)",
    success: { status: 200, description: "JavaScript; 304 when the ETag matches.", contentType: "text/javascript" },
    handler: asset(DASHBOARD_SCRIPT, "text/javascript; charset=utf-8")
  })
] as const
