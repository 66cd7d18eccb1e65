import * as Schema from "effect/Schema"

/**
 * Per-merchant compatibility with receivers written for the platform this contract comes from. The
 * defaults are the contract's bytes (spec 6.1: bare hex, the body as the kit writes it); the others
 * exist because some plugins check less than the contract asks: one compares X-Signature with
 * `"sha256=" + hex` only, and PHP receivers re-encode the parsed body with `json_encode` before
 * checking it, so they hash PHP's spelling rather than the bytes received.
 */

/** How X-Signature spells the hex HMAC: bare (`hex`, the contract's) or `sha256=` and the hex. */
export const IpnSignatureFormat = Schema.Literal("hex", "sha256=hex")
export type IpnSignatureFormat = typeof IpnSignatureFormat.Type

/** How the body is spelled: `compact` (the kit's own JSON) or `php` (as PHP's default `json_encode` writes it). */
export const IpnJsonStyle = Schema.Literal("compact", "php")
export type IpnJsonStyle = typeof IpnJsonStyle.Type

export const DEFAULT_IPN_SIGNATURE_FORMAT: IpnSignatureFormat = "hex"
export const DEFAULT_IPN_JSON_STYLE: IpnJsonStyle = "compact"

/** The X-Signature value for a hex HMAC in the merchant's format. */
export const ipnSignatureHeader = (hex: string, format: IpnSignatureFormat): string => (format === "sha256=hex" ? `sha256=${hex}` : hex)

const hex4 = (unit: number) => `\\u${unit.toString(16).padStart(4, "0")}`

/**
 * A JSON text as PHP's `json_encode` with no flags spells the same values: `/` as `\/` and every
 * character past ASCII as `\uXXXX` (lower-case hex, as PHP writes it), an astral one as its surrogate
 * pair. In JSON both occur only inside strings, so the text is rewritten character by character with
 * no parse: numbers keep their exact literals (amounts never pass through a float), and every other
 * escape the kit writes (`\"`, `\\`, `\n`, `\u001f`...) is already PHP's.
 */
export const phpJsonEncoding = (json: string): string =>
  // Without the `u` flag the class matches UTF-16 code units, so an astral character gives both halves.
  json.replace(/[/\u0080-\uffff]/g, (unit) => (unit === "/" ? "\\/" : hex4(unit.charCodeAt(0))))

/** The bytes sent for a stored event body in the merchant's JSON style. */
export const ipnBody = (body: string, style: IpnJsonStyle): string => (style === "php" ? phpJsonEncoding(body) : body)
