import { OpenApiJsonSchema } from "@effect/platform"
import { Effect, Either } from "effect"
import { parse } from "lossless-json"
import { describe, expect, it } from "vitest"
import * as AdminBodies from "./admin-contracts.js"
import * as PaymentBodies from "./payment-contracts.js"
import { type BodyContract, readBody } from "./read-body.js"
import * as SubscriptionBodies from "./subscription-contracts.js"

const exported: ReadonlyArray<unknown> = [...Object.values(PaymentBodies), ...Object.values(SubscriptionBodies), ...Object.values(AdminBodies)]
const contracts = exported.filter((value): value is BodyContract => typeof value === "object" && value !== null && "fields" in value)

/** A body as the server parses it (numbers kept as their text). */
const asSent = (body: Record<string, unknown>) => parse(JSON.stringify(body)) as Record<string, unknown>

/** The messages a body gets for one field, or [] when that field passed. */
const problemsOf = (contract: BodyContract, field: string, value: unknown): ReadonlyArray<string> => {
  const outcome = Effect.runSync(Effect.either(readBody(contract, asSent({ [field]: value })).done(() => undefined)))
  return Either.isLeft(outcome) ? outcome.left.errors[field] ?? [] : []
}

interface Documented {
  readonly type?: string
  readonly format?: string
  readonly maxLength?: number
  readonly minLength?: number
  readonly minimum?: number
  readonly maximum?: number
  readonly maxItems?: number
  readonly enum?: ReadonlyArray<string>
}

const documented = (contract: BodyContract, field: string): Documented =>
  OpenApiJsonSchema.make(contract.fields[field]!.schema) as Documented

const cases = contracts.flatMap((contract) => Object.keys(contract.fields).map((field) => [contract.name, field, contract] as const))

describe("body contracts: what is documented is what is enforced", () => {
  it("finds every contract", () => {
    // The two merchant user bodies (create, disable) joined the 19 before them, then the
    // subscription update and pause bodies (billing) the 21.
    expect(contracts.length).toBe(23)
  })

  it.each(cases)("%s.%s", (_, field, contract) => {
    const rule = contract.fields[field]!
    const schema = documented(contract, field)
    if (rule.required) expect(problemsOf(contract, field, null)).toEqual([`The ${field.replace(/_/g, " ")} field is required.`])
    else if (!rule.always) expect(problemsOf(contract, field, null)).toEqual([])
    if (schema.type === "string" && schema.format === undefined && schema.maxLength !== undefined && !/currency_code/.test(field)) {
      expect(problemsOf(contract, field, "x".repeat(schema.maxLength))).toEqual([])
      expect(problemsOf(contract, field, "x".repeat(schema.maxLength + 1))).toHaveLength(1)
    }
    if (schema.type === "string" && schema.format === "uri" && schema.maxLength !== undefined) {
      const at = (length: number) => `https://shop.example/${"p".repeat(length - "https://shop.example/".length)}`
      expect(problemsOf(contract, field, at(schema.maxLength))).toEqual([])
      expect(problemsOf(contract, field, at(schema.maxLength + 1))).toHaveLength(1)
    }
    if (schema.type === "integer") {
      if (schema.minimum !== undefined) expect(problemsOf(contract, field, schema.minimum - 1)).toHaveLength(1)
      if (schema.maximum !== undefined) {
        expect(problemsOf(contract, field, schema.maximum)).toEqual([])
        expect(problemsOf(contract, field, schema.maximum + 1)).toHaveLength(1)
      }
    }
    if (schema.enum !== undefined) {
      for (const value of schema.enum) expect(problemsOf(contract, field, value)).toEqual([])
      expect(problemsOf(contract, field, "not-one-of-them")).toHaveLength(1)
    }
    if (schema.type === "array" && schema.maxItems !== undefined) {
      const item = field === "gateway_ids" ? 1 : "USD"
      expect(problemsOf(contract, field, Array.from({ length: schema.maxItems + 1 }, () => item))).toHaveLength(1)
    }
  })
})

describe("readBody", () => {
  it("reports every field's problems in the contract's order, with the codes its rules carry", () => {
    const outcome = Effect.runSync(Effect.either(readBody(PaymentBodies.initiatePaymentBody, asSent({
      ipn_url: "not a url",
      currency_code: "usd",
      payment_amount: true
    })).done(() => undefined)))
    if (Either.isRight(outcome)) throw new Error("expected a refusal")
    expect(outcome.left.code).toBe("INVALID_AMOUNT")
    expect(outcome.left.errors).toEqual({
      payment_amount: ["The payment amount field must be a number."],
      currency_code: ["A currency code is 3 to 10 upper-case letters or digits, starting with a letter."],
      ref_trx: ["The ref trx field is required."],
      success_redirect: ["The success redirect field is required."],
      cancel_redirect: ["The cancel redirect field is required."],
      ipn_url: ["The ipn url field must be a valid URL."]
    })
    expect(Object.keys(outcome.left.errors)).toEqual(["payment_amount", "currency_code", "ref_trx", "success_redirect", "cancel_redirect", "ipn_url"])
  })

  it("gives defaulted fields their default and keeps absent optional ones absent", () => {
    const read = (body: Record<string, unknown>) =>
      Effect.runSync(readBody(AdminBodies.createGatewayBody, asSent(body)).done((valid) => valid))
    const valid = read({ plugin: "sandbox", name: "Cards", currency_code: "USD", method: "cards" })
    expect(valid).toMatchObject({ type: "automatic", active: true, config: undefined })
    expect(read({ plugin: "sandbox", name: "Cards", currency_code: "USD", method: "cards", active: false, type: "manual" }))
      .toMatchObject({ type: "manual", active: false })
  })
})
