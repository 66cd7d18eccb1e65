import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { describeError } from "../adapters/http/response/error-table.js"
import { AuthenticationFailed, AuthenticationFailure } from "../core/merchants/authentication-errors.js"
import { SIGNATURE_CAUSES } from "../core/signing/signature-diagnosis.js"

// The README's troubleshooting tables name only causes, messages and codes the code gives, and
// every cause the code can give is in them: neither side can drift from the other.
const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const readme = readFileSync(join(root, "README.md"), "utf8")
const errorTable = readFileSync(join(root, "adapters/http/response/error-table.ts"), "utf8")

const section = (() => {
  const at = readme.indexOf("### When a call is refused")
  if (at === -1) throw new Error("the README has no \"When a call is refused\" section")
  const end = readme.indexOf("\n## ", at)
  return readme.slice(at, end === -1 ? undefined : end)
})()

/** The body rows of the table whose header starts with `heading`, as cells. */
const table = (heading: string): ReadonlyArray<ReadonlyArray<string>> => {
  const at = section.indexOf(`| ${heading}`)
  if (at === -1) throw new Error(`no table headed "${heading}"`)
  const lines = section.slice(at).split("\n")
  const rows = lines.slice(2, lines.findIndex((line, i) => i > 0 && !line.startsWith("|")))
  return rows.map((row) => row.split(" | ").map((cell) => cell.replace(/^\| ?| ?\|$/g, "")))
}
const quoted = (cell: string): ReadonlyArray<string> => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!)

const reasons: ReadonlyArray<string> = AuthenticationFailure.literals
const messageOf = (reason: AuthenticationFailure) => describeError(new AuthenticationFailed({ reason })).message

describe("the README's troubleshooting tables", () => {
  const refusals = table("401 `message`")

  it("lists every 401 cause the code has, and only those", () => {
    const listed = refusals.map((cells) => quoted(cells[1]!)[0]!)
    for (const cause of listed) expect([...reasons, ...SIGNATURE_CAUSES], `README lists ${cause}`).toContain(cause)
    // invalid_signature is split into the causes its diagnosis names.
    const expected = new Set([...reasons.filter((reason) => reason !== "invalid_signature"), ...SIGNATURE_CAUSES])
    expect(new Set(listed)).toEqual(expected)
    expect(listed).toHaveLength(expected.size)
  })

  it("gives each 401 cause the message the API answers with", () => {
    for (const cells of refusals) {
      const cause = quoted(cells[1]!)[0]!
      const reason = (reasons.includes(cause) ? cause : "invalid_signature") as AuthenticationFailure
      expect(quoted(cells[0]!)[0], cause).toBe(messageOf(reason))
    }
  })

  it("names only 422 messages and error codes the error table gives", () => {
    const rows = table("422 `message`")
    expect(rows.length).toBeGreaterThan(5)
    for (const cells of rows) {
      for (const message of quoted(cells[0]!)) expect(errorTable, message).toContain(`"${message}"`)
      for (const code of quoted(cells[1]!)) expect(errorTable, code).toContain(`"${code}"`)
    }
  })
})
