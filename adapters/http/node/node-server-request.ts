import type { IncomingMessage, ServerResponse } from "node:http"
import * as Cookies from "@effect/platform/Cookies"
import type * as Headers from "@effect/platform/Headers"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import * as Multipart from "@effect/platform/Multipart"
import * as UrlParams from "@effect/platform/UrlParams"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { NodeInspectSymbol } from "effect/Inspectable"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { collectIncoming } from "../request/node-body-reader.js"

/**
 * A Node request as the platform's HttpServerRequest, read straight off node:http. The kit reads
 * bodies through its own reader (request-body.ts, on `source`); the platform's body readers here
 * read the whole body once, within the fiber's MaxBodySize. Multipart bodies and upgrades are not
 * served: no route of the kit takes one.
 */
export class NodeServerRequest implements HttpServerRequest.HttpServerRequest {
  readonly [HttpServerRequest.TypeId]: HttpServerRequest.TypeId = HttpServerRequest.TypeId
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId
  private body: Effect.Effect<Buffer, HttpServerError.RequestError> | undefined
  private parsedCookies: Record<string, string> | undefined

  constructor(
    readonly source: IncomingMessage,
    readonly response: ServerResponse,
    readonly url: string = source.url ?? "/",
    private readonly headersOverride?: Headers.Headers,
    private readonly remoteAddressOverride?: string
  ) {}

  get originalUrl(): string {
    return this.source.url ?? "/"
  }

  get method(): HttpMethod {
    return (this.source.method ?? "GET").toUpperCase() as HttpMethod
  }

  get headers(): Headers.Headers {
    return this.headersOverride ?? (this.source.headers as Headers.Headers)
  }

  get remoteAddress(): Option.Option<string> {
    return Option.fromNullable(this.remoteAddressOverride ?? this.source.socket?.remoteAddress)
  }

  get cookies(): Record<string, string> {
    this.parsedCookies ??= Cookies.parseHeader(this.headers["cookie"] ?? "")
    return this.parsedCookies
  }

  modify(options: { readonly url?: string; readonly headers?: Headers.Headers; readonly remoteAddress?: string }): NodeServerRequest {
    return new NodeServerRequest(
      this.source,
      this.response,
      options.url ?? this.url,
      options.headers ?? this.headersOverride,
      options.remoteAddress ?? this.remoteAddressOverride
    )
  }

  private failure(cause: unknown, description?: string) {
    return new HttpServerError.RequestError({ request: this, reason: "Decode", cause, ...(description !== undefined ? { description } : {}) })
  }

  /** The whole body, read once however many readers ask, within the fiber's MaxBodySize. */
  private get bytes(): Effect.Effect<Buffer, HttpServerError.RequestError> {
    this.body ??= Effect.runSync(Effect.cached(Effect.withFiberRuntime<Buffer, HttpServerError.RequestError>((fiber) => {
      const limit = Context.get(fiber.currentContext, HttpIncomingMessage.MaxBodySize)
      return collectIncoming(this.source, Option.isSome(limit) ? Number(limit.value) : Infinity, {
        tooLarge: () => this.failure(new Error("maxBytes exceeded")),
        unreadable: (cause) => this.failure(cause)
      })
    })))
    return this.body
  }

  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpServerError.RequestError> {
    return Effect.map(this.bytes, (bytes) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer)
  }

  get text(): Effect.Effect<string, HttpServerError.RequestError> {
    return Effect.map(this.bytes, (bytes) => bytes.toString("utf8"))
  }

  get json(): Effect.Effect<unknown, HttpServerError.RequestError> {
    return Effect.flatMap(this.text, (text) =>
      Effect.try({ try: () => JSON.parse(text) as unknown, catch: (cause) => this.failure(cause) }))
  }

  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpServerError.RequestError> {
    return Effect.map(this.text, (text) => UrlParams.fromInput(new URLSearchParams(text)))
  }

  get stream(): Stream.Stream<Uint8Array, HttpServerError.RequestError> {
    return Stream.fromAsyncIterable(this.source as AsyncIterable<Uint8Array>, (cause) => this.failure(cause))
  }

  get multipart(): HttpServerRequest.HttpServerRequest["multipart"] {
    return Effect.fail(new Multipart.MultipartError({ reason: "Parse", cause: new Error("multipart bodies are not accepted") }))
  }

  get multipartStream(): HttpServerRequest.HttpServerRequest["multipartStream"] {
    return Stream.fail(new Multipart.MultipartError({ reason: "Parse", cause: new Error("multipart bodies are not accepted") }))
  }

  get upgrade(): HttpServerRequest.HttpServerRequest["upgrade"] {
    return Effect.fail(this.failure(undefined, "not an upgradeable ServerRequest"))
  }

  toString(): string {
    return `ServerRequest(${this.method} ${this.url})`
  }

  toJSON(): unknown {
    return HttpIncomingMessage.inspect(this, { _id: "@effect/platform/HttpServerRequest", method: this.method, url: this.originalUrl })
  }

  [NodeInspectSymbol](): unknown {
    return this.toJSON()
  }
}
