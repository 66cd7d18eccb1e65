/**
 * CSV as RFC 4180 writes it: fields joined by commas, records ended by CRLF, and a field holding a
 * comma, a double quote, CR or LF enclosed in double quotes with its quotes doubled.
 */

const NEEDS_QUOTES = /[",\r\n]/

export const csvField = (value: string): string => (NEEDS_QUOTES.test(value) ? `"${value.replaceAll("\"", "\"\"")}"` : value)

/** A spreadsheet runs a cell starting with one of these as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/

/**
 * A text cell that may carry someone's words (a refund reason, a reference): one that would start a
 * formula gets a leading apostrophe, which spreadsheets show as text and never evaluate. Numbers go
 * through csvField alone, so a negative amount stays a number.
 */
export const csvText = (value: string | null): string =>
  csvField(value === null ? "" : FORMULA_START.test(value) ? `'${value}` : value)

/** One record, already made of csvField / csvText cells. */
export const csvRecord = (cells: ReadonlyArray<string>): string => `${cells.join(",")}\r\n`
