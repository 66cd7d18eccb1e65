/**
 * Rules for short text a merchant sends that later lands in places it must not disturb: references
 * are echoed in JSON, webhook bodies, logs and admin screens; an email address may be shown or
 * mailed to. Each answers with what is wrong (a fragment for a field message) or undefined.
 */

// Controls (CR/LF, tab, ESC, C1...), line and paragraph separators, and bidirectional formatting
// (LRM/RLM, the embeddings and overrides U+202A-202E, the isolates U+2066-2069, the Arabic letter
// mark): any of them can make a reference print as something other than what it is.
const UNPRINTABLE = /[\p{Cc}\p{Zl}\p{Zp}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u

/** A merchant reference (`ref_trx`, `ref_refund`): visible characters, not blank. */
export const referenceProblem = (text: string): "blank" | "unprintable" | undefined => {
  if (UNPRINTABLE.test(text)) return "unprintable"
  return text.trim() === "" ? "blank" : undefined
}

// RFC 5322 atext without "/", and letters and digits of any script (RFC 6531), dot-separated.
const LOCAL_PART = /^[\p{L}\p{M}\p{N}!#$%&'*+=?^_`{|}~-]+(?:\.[\p{L}\p{M}\p{N}!#$%&'*+=?^_`{|}~-]+)*$/u
const DOMAIN_LABEL = /^[\p{L}\p{M}\p{N}](?:[\p{L}\p{M}\p{N}-]{0,61}[\p{L}\p{M}\p{N}])?$/u

/**
 * An email address as people write one: `local@domain`, exactly one `@`, no spaces, controls,
 * slashes, colons or quotes, a domain of at least two labels with a non-numeric last one, and the
 * SMTP limits (64 for the local part, 253 for the domain). Stricter than RFC 5322 on purpose: quoted
 * local parts and address literals are legal but are what an attacker sends, not a customer.
 */
export const isEmailAddress = (text: string): boolean => {
  const parts = text.split("@")
  if (parts.length !== 2) return false
  const [local, domain] = parts as [string, string]
  if ([...local].length > 64 || [...domain].length > 253 || !LOCAL_PART.test(local)) return false
  const labels = domain.split(".")
  return labels.length >= 2 && labels.every((label) => DOMAIN_LABEL.test(label)) && !/^\p{N}+$/u.test(labels.at(-1)!)
}
