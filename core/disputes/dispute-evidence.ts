import * as Effect from "effect/Effect"
import type { ValidationFailed } from "../shared/validation.js"
import { ValidationFailed as Invalid } from "../shared/validation.js"
import type { EvidenceFile } from "./dispute.js"

/** Limits on what a merchant sends (docs/decisions.md): within the API's 1 MiB body, base64 and all. */
export const MAX_EVIDENCE_TEXT = 20_000
export const MAX_EVIDENCE_FILES = 4
export const MAX_EVIDENCE_FILE_BYTES = 256 * 1024
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._ -]{0,99}$/
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

export interface EvidenceInput {
  readonly text: string
  readonly files: ReadonlyArray<{ readonly name: string; readonly contentBase64: string }>
}

/** Bytes a base64 text decodes to, its padding counted off. */
const decodedSize = (base64: string): number =>
  (base64.length / 4) * 3 - (base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0)

/** The evidence, checked field by field; every problem named at once. */
export const checkEvidence = (input: EvidenceInput): Effect.Effect<{ readonly text: string; readonly files: ReadonlyArray<EvidenceFile> }, ValidationFailed> => {
  const errors: Record<string, Array<string>> = {}
  const text = input.text.trim()
  if (text === "") errors["text"] = ["The text must say why the payment stands: it is what the card network reads."]
  else if (Array.from(text).length > MAX_EVIDENCE_TEXT) errors["text"] = [`The text may be at most ${MAX_EVIDENCE_TEXT} characters.`]
  if (input.files.length > MAX_EVIDENCE_FILES) errors["files"] = [`At most ${MAX_EVIDENCE_FILES} files may be sent.`]
  const files: Array<EvidenceFile> = []
  input.files.forEach((file, index) => {
    const problems: Array<string> = []
    if (!FILE_NAME.test(file.name)) problems.push("The name must be 1 to 100 letters, digits, dots, dashes, underscores or spaces, starting with a letter or digit.")
    if (file.contentBase64 === "" || !BASE64.test(file.contentBase64)) problems.push("The content_base64 must be the file's bytes in standard base64.")
    else if (decodedSize(file.contentBase64) > MAX_EVIDENCE_FILE_BYTES) problems.push(`A file may be at most ${MAX_EVIDENCE_FILE_BYTES / 1024} KiB.`)
    if (problems.length > 0) errors[`files.${index}`] = problems
    else files.push({ name: file.name, contentBase64: file.contentBase64, size: decodedSize(file.contentBase64) })
  })
  return Object.keys(errors).length > 0 ? Effect.fail(new Invalid({ errors, code: "VALIDATION_FAILED" })) : Effect.succeed({ text, files })
}
