import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { CheckoutLinks } from "../../../core/payments/checkout-links.js"
import { RouteNotFound } from "../response/edge-errors.js"
import { errorHttpResponse, serverErrorHttpResponse } from "../response/responses.js"
import { renderOpenApiDocument } from "./document.js"
import { referencePage, referenceScript, rendererBundle } from "./reference-page.js"

/** One rendering per public base: the document is the same for every request of a host. */
const rendered = new Map<string, string>()

const documentText = (serverUrl: string) => {
  let text = rendered.get(serverUrl)
  if (text === undefined) {
    text = renderOpenApiDocument(serverUrl)
    rendered.set(serverUrl, text)
  }
  return text
}

/** `GET /openapi.json`, `GET /docs` and the reference page's script: unauthenticated, like the spec they show. */
export const openApiRoutes = HttpRouter.empty.pipe(
  HttpRouter.get(
    "/openapi.json",
    Effect.map(CheckoutLinks, (links) => HttpServerResponse.text(documentText(links.baseUrl), { contentType: "application/json" }))
  ),
  HttpRouter.get("/docs", Effect.sync(() => HttpServerResponse.text(referencePage(), { contentType: "text/html; charset=utf-8" }))),
  HttpRouter.get(
    "/docs/scalar.js",
    // Without the optional renderer there is no script: the plain page does not ask for one.
    Effect.suspend(() => rendererBundle() === undefined ? errorHttpResponse(new RouteNotFound()) : referenceScript.pipe(
      Effect.map((bytes) =>
        HttpServerResponse.uint8Array(bytes, {
          contentType: "text/javascript; charset=utf-8",
          headers: { "cache-control": "public, max-age=86400" }
        })),
      // A host installed without the renderer still answers, with the 7.3 body of a server error.
      Effect.catchAll((error) => Effect.zipRight(Effect.logError("the API reference script could not be read", error), serverErrorHttpResponse))
    ))
  )
)
