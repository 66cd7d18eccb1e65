import { readFileSync } from "node:fs"
import { Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { AuthenticationFailure } from "../../core/merchants/authentication-errors.js"
import { parseAmount, parseFeePercent, parseSignedAmount } from "../../core/money/parse.js"
import { BodyFields } from "./request/body-fields.js"
import { VERBATIM } from "../../conformance/http/voice-cases.js"
import type { ApiError } from "./response/api-error.js"
import { describeError } from "./response/error-table.js"


/** One voice: a sentence, starting with a capital and ending with a full stop (or ? / !). */
const expectSentence = (text: string, where: string) => {
  if (VERBATIM.has(text)) return
  expect(text, where).toMatch(/^\p{Lu}[\s\S]*[.?!]$/u)
}

// Every row of the table, read from its source so a row added later is walked too.
const tags = [...readFileSync(new URL("./response/error-table.ts", import.meta.url), "utf8").matchAll(/case "(\w+)":/g)].map(([, tag]) => tag!)

/** Field values for any row; extra ones are ignored by rows that do not read them. */
const sampleFields = {
  status: "disabled",
  errors: {},
  code: "VALIDATION_FAILED",
  detail: "The request body is not valid UTF-8.",
  resource: "Webhook delivery",
  retryAfterSeconds: 7,
  amount: 2_500_000_000n,
  held: 1_000_000_000n,
  currency: "USD",
  exponent: 2,
  limitBytes: 1_048_576,
  allow: ["GET", "HEAD"],
  environment: "sandbox",
  refRefund: "rf-1",
  message: "Active subscriptions cannot renew early: the current period is paid."
}

const describedMessages = (error: object): Array<string> => {
  // Samples stand in for every error class; the table reads only the fields above.
  const described = describeError(error as ApiError)
  return [described.message, ...Object.values(described.errors ?? {}).flat()]
}

describe("one voice for every message the API answers", () => {
  it("finds the rows of the error table", () => {
    expect(tags.length).toBeGreaterThan(25)
  })

  it.each(tags)("error table row %s", (tag) => {
    const samples = tag === "AuthenticationFailed"
      ? AuthenticationFailure.literals.map((reason) => ({ _tag: tag, reason }))
      : tag === "AuthenticationThrottled"
      ? [...AuthenticationFailure.literals, "admin_token"].map((reason) => ({ _tag: tag, reason, retryAfterSeconds: 7 }))
      : [{ _tag: tag, ...sampleFields }]
    for (const sample of samples) {
      for (const message of describedMessages(sample)) expectSentence(message, `${tag}: ${message}`)
    }
  })

  it("field messages of request bodies", () => {
    const body = { text: 5, blank: " ", long: "x".repeat(20), url: "nope", email: "a@b", ref: "a\nb", pick: "z", flag: 1, int: 99, amount: true, strings: [1], ints: [0] }
    const fields = new BodyFields(body)
    fields.string("text")
    fields.string("missing", { required: true })
    fields.string("long", { max: 10 })
    fields.string("blank", { required: true })
    fields.url("url")
    fields.email("email")
    fields.reference("ref")
    fields.reference("blank")
    fields.oneOf("pick", ["a", "b"])
    fields.boolean("flag")
    fields.integer("int", { min: 1, max: 10 })
    fields.amount("amount")
    fields.stringArray("strings")
    fields.integerArray("ints")
    const messages = Object.values(Effect.runSync(Effect.flip(fields.done(() => undefined))).errors).flat()
    expect(messages.length).toBeGreaterThanOrEqual(14)
    for (const message of messages) expectSentence(message, message)
  })

  it("amount and fee percent messages", () => {
    const refusals = [
      parseAmount({ kind: "json-number", text: "-1" }, 2),
      parseAmount({ kind: "json-number", text: "0" }, 2, { allowZero: false }),
      parseAmount({ kind: "json-number", text: "1.001" }, 2),
      parseAmount({ kind: "json-number", text: "1.5" }, 0),
      parseAmount({ kind: "json-number", text: "1e30" }, 2),
      parseAmount({ kind: "string", value: "ten" }, 2),
      parseAmount({ kind: "string", value: "1".repeat(65) }, 2),
      parseSignedAmount({ kind: "string", value: "1.2.3" }, 2),
      parseFeePercent({ kind: "json-number", text: "101" }),
      parseFeePercent({ kind: "json-number", text: "-1" }),
      parseFeePercent({ kind: "json-number", text: "1.000000001" })
    ]
    for (const refusal of refusals) {
      const message = Either.getOrThrow(Either.flip(refusal)).message
      expectSentence(message, message)
    }
  })
})
