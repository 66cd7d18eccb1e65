import { readFileSync } from "node:fs"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { amount, string } from "../adapters/http/contract/field-rules.js"
import { bodyContract } from "../adapters/http/contract/read-body.js"
import { Money } from "../adapters/http/contract/value-schemas.js"
import { renderClientOperations } from "../adapters/http/endpoint/client-operations.js"
import { endpoint } from "../adapters/http/endpoint/endpoint.js"
import { merchantApi } from "../adapters/http/merchant-api/merchant-api.js"
import { Effect } from "effect"

describe("the client's operation table", () => {
  it("is what the endpoint declarations give (run `npm run client:operations` after changing one)", () => {
    expect(readFileSync(new URL("./operations.ts", import.meta.url), "utf8")).toBe(renderClientOperations(merchantApi))
  })

  it("lists every merchant endpoint once, and the money fields of their bodies and answers", () => {
    const Answer = Schema.Struct({
      total: Money,
      lines: Schema.Array(Schema.Struct({ price: Money, label: Schema.String })),
      maybe: Schema.NullOr(Schema.Struct({ owed: Money })),
      count: Schema.Number
    })
    const scratch = endpoint({
      method: "post",
      path: "/api/v1/scratch/{id}",
      operationId: "scratch",
      summary: "A scratch endpoint",
      tag: "Scratch",
      security: "merchant",
      body: bodyContract("Scratch", "A scratch body.", { sum: amount({ required: true }), note: string({ max: 10 }) }),
      success: { status: 200, description: "The answer.", schema: Answer },
      handler: Effect.die("never called")
    })
    const text = renderClientOperations([scratch])
    expect(text).toContain(`scratch: { method: "POST", path: "/api/v1/scratch/{id}" }`)
    expect(text).toContain(`REQUEST_MONEY_FIELDS: ReadonlyArray<string> = ["sum"]`)
    expect(text).toContain(`RESPONSE_MONEY_FIELDS: ReadonlyArray<string> = ["owed", "price", "total"]`)
    const rows = renderClientOperations(merchantApi).split("\n").filter((line) => /^ {2}\w+: \{ method/.test(line))
    expect(rows.map((row) => row.trim().split(":")[0])).toEqual(merchantApi.map((declared) => declared.operationId))
  })
})
