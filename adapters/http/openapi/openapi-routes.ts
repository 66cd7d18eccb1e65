import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { CheckoutLinks } from "../../../core/payments/checkout-links.js"
import { htmlResponse } from "../pages/html-response.js"
import { RouteNotFound } from "../response/edge-errors.js"
import { errorHttpResponse, serverErrorHttpResponse } from "../response/responses.js"

/**
 * The document's generator and the reference page load on the first request for them, not with the
 * kit: most hosts never serve them. (The module loader keeps each once loaded.)
 */
const loadDocument = Effect.promise(() => import("./document.js"))
const loadReferencePage = Effect.promise(() => import("./reference-page.js"))

/** One rendering per public base: the document is the same for every request of a host. */
const rendered = new Map<string, string>()

const documentText = (serverUrl: string) =>
  Effect.map(loadDocument, ({ renderOpenApiDocument }) => {
    let text = rendered.get(serverUrl)
    if (text === undefined) {
      text = renderOpenApiDocument(serverUrl)
      rendered.set(serverUrl, text)
    }
    return text
  })

/** `GET /openapi.json`, `GET /docs` and the reference page's script: unauthenticated, like the spec they show. */
export const openApiRoutes = HttpRouter.empty.pipe(
  HttpRouter.get(
    "/openapi.json",
    Effect.flatMap(CheckoutLinks, (links) => Effect.map(documentText(links.baseUrl), (text) => HttpServerResponse.text(text, { contentType: "application/json" })))
  ),
  HttpRouter.get("/docs", Effect.map(loadReferencePage, ({ referencePage }) => htmlResponse(referencePage()))),
  HttpRouter.get(
    "/docs/scalar.js",
    // Without the optional renderer there is no script: the plain page does not ask for one.
    Effect.flatMap(loadReferencePage, ({ referenceScript, rendererBundle }) => rendererBundle() === undefined ? errorHttpResponse(new RouteNotFound()) : referenceScript.pipe(
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
