import { createHash } from "node:crypto"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"

/**
 * A file of the kit's own (a stylesheet, an enhancement script), served by the kit itself: its pages'
 * Content-Security-Policy allows nothing inline and nothing from elsewhere. Revalidated by ETag, so a
 * new release's file shows at once and an unchanged one costs a 304.
 */
export const staticAsset = (text: string, contentType: string) => {
  const etag = `"${createHash("sha256").update(text).digest("base64url").slice(0, 22)}"`
  return Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
    request.headers["if-none-match"] === etag
      ? HttpServerResponse.empty({ status: 304, headers: { etag } })
      : HttpServerResponse.text(text, {
        contentType,
        headers: { etag, "cache-control": "no-cache", "x-content-type-options": "nosniff" }
      }))
}
