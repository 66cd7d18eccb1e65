import type { SignatureParts } from "./request-signature.js"

/**
 * The near misses a failed request signature is tried against: each is one mistake a client commonly
 * makes, written as the parts that client would have signed. Only the first form of each mistake that
 * differs from what the server accepts is kept, so no alternative can match a valid signature.
 */

/** A mistake, and what a client making it signs; `method` is signed as given here (not upper-cased). */
export interface Alternative {
  readonly cause: "query_string_missing" | "body_reserialized" | "base_path" | "method_case" | "timestamp_mismatch"
  readonly parts: SignatureParts
  /** For `base_path`: the path that matched, which the explanation names (a path is no secret). */
  readonly signedPath?: string
}

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** The API's own prefix: a client whose base URL ends in it signs the paths after it. */
const API_PREFIX = "/api/v1"

const withoutQuery = (target: string): string => {
  const at = target.indexOf("?")
  return at === -1 ? target : target.slice(0, at)
}

const sortedKeys = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sortedKeys)
    : value !== null && typeof value === "object"
    ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]))
    : value

/** The body as common JSON libraries write it again after parsing: compact, 2-space, sorted keys. */
export const reserializedBodies = (rawBody: Uint8Array): ReadonlyArray<string> => {
  let text: string
  let parsed: unknown
  try {
    text = utf8.decode(rawBody)
    parsed = JSON.parse(text)
  } catch {
    return []
  }
  const forms = [
    JSON.stringify(parsed),
    JSON.stringify(parsed, null, 2),
    JSON.stringify(sortedKeys(parsed)),
    JSON.stringify(sortedKeys(parsed), null, 2)
  ]
  return [...new Set(forms)].filter((form) => form !== text)
}

export interface AlternativeInput {
  readonly timestamp: string
  readonly method: string
  /** Every path with query the server accepts for this request (full, and relative when mounted). */
  readonly accepted: ReadonlyArray<string>
  readonly rawBody: Uint8Array
  /** The path of the public base URL, when it has one: a proxy may strip it before the kit sees it. */
  readonly publicBasePath: string | undefined
}

/** Every near miss of one request, in the order a matching one is reported. */
export const alternativesOf = (input: AlternativeInput): ReadonlyArray<Alternative> => {
  const { accepted, rawBody, timestamp } = input
  const method = input.method.toUpperCase()
  const path = accepted[0]!
  const signed = (cause: Alternative["cause"], changes: Partial<SignatureParts>, signedPath?: string): Alternative => ({
    cause,
    parts: { timestamp, method, pathWithQuery: path, rawBody, ...changes },
    ...(signedPath !== undefined ? { signedPath } : {})
  })
  const alternatives: Array<Alternative> = []
  for (const target of accepted) {
    if (withoutQuery(target) !== target) alternatives.push(signed("query_string_missing", { pathWithQuery: withoutQuery(target) }))
  }
  for (const body of reserializedBodies(rawBody)) {
    for (const target of accepted) alternatives.push(signed("body_reserialized", { pathWithQuery: target, rawBody: body }))
  }
  const relative = accepted[accepted.length - 1]!
  const otherPaths = [
    input.publicBasePath !== undefined ? input.publicBasePath + relative : undefined,
    relative.startsWith(`${API_PREFIX}/`) ? relative.slice(API_PREFIX.length) : undefined
  ]
  for (const other of otherPaths) {
    if (other !== undefined && !accepted.includes(other)) alternatives.push(signed("base_path", { pathWithQuery: other }, other))
  }
  if (method !== method.toLowerCase()) alternatives.push(signed("method_case", { method: method.toLowerCase() }))
  // A client that reads the clock twice (once for the header, once for the signature) drifts by a second or two.
  if (/^[0-9]{1,12}$/.test(timestamp)) {
    for (const delta of [-2, -1, 1, 2]) {
      const other = Number(timestamp) + delta
      if (other >= 0) alternatives.push(signed("timestamp_mismatch", { timestamp: String(other) }))
    }
  }
  return alternatives
}
