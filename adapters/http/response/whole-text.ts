import * as HttpServerResponse from "@effect/platform/HttpServerResponse"

/**
 * A whole text answer, handed to Node as the string itself with its byte length. Node then writes
 * the head and the body in one write; `HttpServerResponse.text` encodes the body to bytes first, and
 * Node sends head and bytes as two buffers (a profile showed that `writev` on every answer).
 */
export const wholeText = (
  text: string,
  options: { readonly status?: number; readonly contentType: string; readonly headers?: Readonly<Record<string, string>> }
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.raw(text, { ...options, contentLength: Buffer.byteLength(text) })
