import { DASHBOARD_SCRIPT, DASHBOARD_STYLESHEET } from "./dashboard-style.js"
import { dashboardRoute } from "../page-declaration.js"
import { staticAsset as asset } from "../../response/static-asset.js"

// The dashboard's stylesheet and enhancement script, served by the kit itself (response/static-asset.ts).

export const dashboardAssetPages = [
  dashboardRoute({
    method: "get", path: "/dashboard/assets/dashboard.css", operationId: "dashboardStylesheet", view: "anyone",
    summary: "The dashboard's stylesheet",
    success: { status: 200, description: "CSS; 304 when the ETag matches.", contentType: "text/css" },
    handler: asset(DASHBOARD_STYLESHEET, "text/css; charset=utf-8")
  }),
  dashboardRoute({
    method: "get", path: "/dashboard/assets/dashboard.js", operationId: "dashboardScript", view: "anyone",
    summary: "The dashboard's one enhancement script (every page works without it)",
    success: { status: 200, description: "JavaScript; 304 when the ETag matches.", contentType: "text/javascript" },
    handler: asset(DASHBOARD_SCRIPT, "text/javascript; charset=utf-8")
  })
] as const
