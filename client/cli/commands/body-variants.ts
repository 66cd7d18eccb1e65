import { phpJsonEncoding } from "../../../core/webhooks/ipn-compatibility.js"

/**
 * The ways a pasted body most often differs from the bytes that were signed: an editor or `echo`
 * added a line end, a copy went through Windows line ends, a framework pretty-printed the JSON, or
 * the sender spelled it as PHP does (`\/`, `\u00e9`) and a decoder turned it back. Each is a
 * candidate to check the signature against, so the command can say which change broke it.
 */
export interface BodyVariant {
  /** What differs, as a sentence about the pasted body. */
  readonly change: string
  readonly body: string
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"])

/**
 * The JSON text without the whitespace between tokens (inside strings it is kept), rewritten
 * character by character rather than parsed and re-serialized, so numbers keep their exact digits.
 */
export const compactJsonText = (json: string): string => {
  let out = ""
  let inString = false
  let escaped = false
  for (const character of json) {
    if (inString) {
      out += character
      if (escaped) escaped = false
      else if (character === "\\") escaped = true
      else if (character === "\"") inString = false
    } else if (!WHITESPACE.has(character)) {
      out += character
      if (character === "\"") inString = true
    }
  }
  return out
}

/** Each distinct candidate, the pasted body itself excluded. */
export const bodyVariants = (body: string): ReadonlyArray<BodyVariant> => {
  const withoutLineEnd = body.replace(/(?:\r?\n)+$/, "")
  const compact = compactJsonText(body)
  const candidates: ReadonlyArray<BodyVariant> = [
    { change: "a line end was added after the body (an editor, `echo` or a heredoc adds one)", body: withoutLineEnd },
    { change: "line ends were changed to CRLF", body: body.replace(/\r\n/g, "\n") },
    { change: "the JSON was re-serialized with whitespace (pretty-printed or reformatted)", body: compact },
    { change: "the JSON was decoded from PHP's spelling (`\\/`, `\\u00e9`) that was signed", body: phpJsonEncoding(compact) }
  ]
  const seen = new Set([body])
  return candidates.filter((candidate) => {
    if (seen.has(candidate.body)) return false
    seen.add(candidate.body)
    return true
  })
}
