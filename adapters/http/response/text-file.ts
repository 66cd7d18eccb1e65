import * as Schema from "effect/Schema"

/**
 * A file an endpoint answers instead of JSON (a CSV, a SEPA XML): rendered as its own text with its
 * content type and, for a download, its file name. Idempotent replays keep it like any answer.
 */
export class TextFile {
  constructor(
    readonly contentType: string,
    readonly text: string,
    readonly filename?: string
  ) {}
}

/** The success schema of an endpoint that answers only files (its `files` name their types). */
export const FileAnswer = Schema.instanceOf(TextFile, { jsonSchema: { type: "string" } }).annotations({ identifier: "FileAnswer" })

/** Whether the request asks for CSV: `?format=csv`, or an Accept header naming text/csv. */
export const wantsCsv = (format: string | undefined, accept: string | undefined): boolean =>
  format === "csv" || (format === undefined && (accept ?? "").split(",").some((type) => type.trim().toLowerCase().startsWith("text/csv")))
