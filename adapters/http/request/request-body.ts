import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { ValidationFailed } from "../../../core/shared/validation.js"
import { BodyTooLarge, MalformedJson, UnsupportedMediaType } from "../response/edge-errors.js"
import { isJsonNumber, parseJson } from "../contract/json-codec.js"
import { incomingMessageOf, readIncoming } from "./node-body-reader.js"

export const MAX_BODY_BYTES = 1024 * 1024

/** The exact bytes received, read once: signatures are checked over them and JSON parsed from them. */
export class RawBody extends Context.Tag("merchant-payments/http/RawBody")<RawBody, Uint8Array>() {}

const exceededLimit = (error: unknown): boolean => {
  const cause = (error as { cause?: unknown }).cause
  return cause instanceof Error && cause.message === "maxBytes exceeded"
}

const EMPTY = new Uint8Array(0)

export const readRawBodyUpTo = (limitBytes: number) => Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  // A GET that declares no body has none (HTTP/1.1 needs Content-Length or chunking for one, and a
  // fetch Request cannot carry one): no stream to drain on the most common call.
  const bodiless = request.method === "GET" || request.method === "HEAD"
  if (bodiless && request.headers["content-length"] === undefined && request.headers["transfer-encoding"] === undefined) return EMPTY
  const declared = Number(request.headers["content-length"] ?? "0")
  // Refused on the declared length without reading; the edge drains the rest before answering.
  if (declared > limitBytes) return yield* new BodyTooLarge({ limitBytes })
  const incoming = incomingMessageOf(request)
  if (incoming !== undefined) return yield* readIncoming(incoming, limitBytes)
  // Fetch-style hosts: the platform reader enforces the same limit.
  const buffer = yield* request.arrayBuffer.pipe(
    HttpIncomingMessage.withMaxBodySize(Option.some(limitBytes)),
    Effect.mapError((error): BodyTooLarge | MalformedJson =>
      exceededLimit(error)
        ? new BodyTooLarge({ limitBytes })
        : new MalformedJson({ detail: "The request body could not be read." }))
  )
  return new Uint8Array(buffer)
})

export const readRawBody = readRawBodyUpTo(MAX_BODY_BYTES)

/** A request body that is text of one media type (a CSV upload), with its own size limit. */
export interface TextBodyContract {
  readonly contentType: "text/csv"
  readonly maxBytes: number
  readonly description: string
}

/** The raw body of an endpoint that reads text of its contract's type: another type is refused before it is read. */
export const readTextRawBody = (contract: TextBodyContract) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase()
    // A body labelled as anything else is refused, framed or not (a fetch-style host may not say its length).
    if ((carriesBody(request) || type !== "") && type !== contract.contentType) return yield* new UnsupportedMediaType({ expected: contract.contentType })
    return yield* readRawBodyUpTo(contract.maxBytes)
  })

/** The raw body as its endpoint reads it: JSON, or text of its declared type. */
export const readEndpointRawBody = (textBody: TextBodyContract | undefined) => textBody === undefined ? readJsonRawBody : readTextRawBody(textBody)

/** The body as UTF-8 text (a CSV upload). */
export const textBody = Effect.flatMap(RawBody, (raw) => {
  try {
    return Effect.succeed(utf8.decode(raw))
  } catch {
    return ValidationFailed.field("body", "The request body must be UTF-8 text.")
  }
})

/** `application/json`, with or without parameters (charset): spec 4.1 names no other type. */
const JSON_MEDIA_TYPE = /^application\/json[ \t]*(;|$)/i

/**
 * Whether a request has a body at all: HTTP/1.1 frames one only by Transfer-Encoding or a non-zero
 * Content-Length, whatever the method.
 */
export const carriesBody = (request: HttpServerRequest.HttpServerRequest): boolean =>
  request.headers["transfer-encoding"] !== undefined ||
  (request.headers["content-length"] !== undefined && request.headers["content-length"] !== "0")

/**
 * The raw body of a JSON endpoint: a body labelled as anything but JSON (or not labelled) is refused
 * before it is read. A request with no body needs no Content-Type. GET bodies are never parsed.
 */
export const readJsonRawBody = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const parsed = request.method !== "GET" && request.method !== "HEAD"
  if (parsed && carriesBody(request) && !JSON_MEDIA_TYPE.test(request.headers["content-type"] ?? "")) {
    return yield* new UnsupportedMediaType()
  }
  return yield* readRawBody
})

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** The JSON parser's words ("Object value expected after ':' at position 5") in the API's voice. */
const asSentence = (text: string): string => {
  const capitalised = text.charAt(0).toUpperCase() + text.slice(1)
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`
}

/** The body as a JSON object. An empty body is an empty object: every field then reads as absent. */
export const jsonObjectBody = Effect.gen(function*() {
  const raw = yield* RawBody
  if (raw.length === 0) return {} as Record<string, unknown>
  let text: string
  try {
    text = utf8.decode(raw)
  } catch {
    return yield* new MalformedJson({ detail: "The request body is not valid UTF-8." })
  }
  let value: unknown
  try {
    value = parseJson(text)
  } catch (error) {
    return yield* new MalformedJson({ detail: error instanceof Error ? asSentence(error.message) : "Unreadable JSON." })
  }
  // lossless-json represents a bare number as an object of its own, so it is excluded by name.
  if (typeof value !== "object" || value === null || Array.isArray(value) || isJsonNumber(value)) {
    return yield* ValidationFailed.field("body", "The request body must be a JSON object.")
  }
  return value as Record<string, unknown>
})
