import * as Effect from "effect/Effect"
import { Instant } from "./instant.js"
import { ValidationFailed } from "./validation.js"

/**
 * Newest-first lists paged by keyset (the events API, the audit log, and the lists to come): a page
 * continues after the last row shown, as (created_at, id), so it never shifts while rows arrive.
 * The cursor is that position, opaque to callers (base64url) so its form can change without
 * breaking them.
 */
export interface KeysetPosition<Id> {
  readonly createdAt: Instant
  readonly id: Id
}

export interface KeysetCursor<Id> {
  readonly encode: (position: KeysetPosition<Id>) => string
  /** The position, or undefined when the text is not a cursor this kit gave. */
  readonly decode: (text: string) => KeysetPosition<Id> | undefined
}

/** The longest cursor text read: a 19-digit instant, a dot and a 100-character id, in base64url. */
export const MAX_CURSOR_LENGTH = 200

const decodeBase64Url = (text: string): string | undefined => {
  try {
    return atob(text.replaceAll("-", "+").replaceAll("_", "/"))
  } catch {
    return undefined
  }
}

/**
 * A cursor over ids written as `idPattern` matches (printable ASCII, so btoa/atob, the web globals,
 * carry the text whole) and read back with `readId`.
 */
export const keysetCursor = <Id extends string | number>(idPattern: string, readId: (text: string) => Id): KeysetCursor<Id> => {
  const shape = new RegExp(`^(\\d{1,19})\\.(${idPattern})$`)
  return {
    encode: (position) => btoa(`${position.createdAt}.${position.id}`).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, ""),
    decode: (text) => {
      if (!/^[A-Za-z0-9_-]+$/.test(text) || text.length > MAX_CURSOR_LENGTH) return undefined
      const match = shape.exec(decodeBase64Url(text) ?? "")
      return match === null ? undefined : { createdAt: Instant(BigInt(match[1]!)), id: readId(match[2]!) }
    }
  }
}

/** A time range [since, until) that holds nothing is refused rather than answered empty. */
export const orderedRange = (since: Instant | undefined, until: Instant | undefined): Effect.Effect<void, ValidationFailed> =>
  since !== undefined && until !== undefined && until <= since
    ? Effect.fail(ValidationFailed.field("until", "The until time must be after since."))
    : Effect.void

export interface KeysetRequest {
  /** From a previous page's `nextCursor`. */
  readonly cursor?: string
  readonly since?: Instant
  readonly until?: Instant
  readonly limit: number
}

/**
 * One page: the cursor and the time range checked (each refusal named), one row more than asked
 * fetched to tell whether a next page exists without counting, and the next page's cursor.
 */
export const keysetPage = <Id, Row extends KeysetPosition<Id>, E, R>(
  cursor: KeysetCursor<Id>,
  request: KeysetRequest,
  fetch: (query: { readonly limit: number; readonly before?: KeysetPosition<Id> }) => Effect.Effect<ReadonlyArray<Row>, E, R>
) =>
  Effect.gen(function*() {
    const before = request.cursor === undefined ? undefined : cursor.decode(request.cursor)
    if (request.cursor !== undefined && before === undefined) {
      return yield* ValidationFailed.field("cursor", "The cursor must be a next_cursor this API gave.")
    }
    yield* orderedRange(request.since, request.until)
    const found = yield* fetch({ limit: request.limit + 1, ...(before !== undefined ? { before } : {}) })
    const rows = found.slice(0, request.limit)
    const last = rows[rows.length - 1]
    return {
      rows,
      nextCursor: found.length > request.limit && last !== undefined ? cursor.encode({ createdAt: last.createdAt, id: last.id }) : null
    }
  })
