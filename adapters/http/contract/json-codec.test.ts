import { parse } from "lossless-json"
import { describe, expect, it } from "vitest"
import { isJsonNumber, parseJson } from "./json-codec.js"

/** What lossless-json itself makes of a text: its value, or its refusal's words. */
const outcome = (read: (text: string) => unknown, text: string) => {
  try {
    return { value: read(text) }
  } catch (error) {
    return { refused: error instanceof Error ? error.message : String(error) }
  }
}

const TEXTS = [
  JSON.stringify({
    payment_amount: 100, currency_code: "USD", ref_trx: "order-1", success_redirect: "https://shop.example/ok",
    allow_payment_methods: ["card", 7, { nested: -5 }], description: null, flag: true
  }),
  "{\"a\":1,\"a\":1}", "{\"a\":1,\"a\":2}", "{\"a\":{\"b\":1},\"b\":{\"b\":2}}", "{\"__proto__\":{\"x\":1}}",
  "{\"a\":-0}", "{\"a\":1e2}", "{\"a\":1.50}", "{\"a\":12345678901234567890}", "{\"a\":123456789012345}",
  "{\"a\":\"q\\\"b:\":2}", "{\"a\":\"1\\\\\"  :3}", "{\"a\":01}", "{\"a\":1,}", "{\"a\":\"x\ty\"}", " {\"a\":1} \n",
  "[1,{\"a\":2}]", "{\"\":1}", "\"x\"", "5", "{\"a\":1}x", "{\"a\" : 1 ,\"b\":\r\n2}", "{\"a\":\"\\ud800\"}", "{\"a\":tru}"
]

describe("parseJson", () => {
  it.each(TEXTS)("reads %j as lossless-json does: the same values, or the same refusal", (text) => {
    expect(outcome(parseJson, text)).toEqual(outcome(parse, text))
  })

  it("keeps every number as its literal text, on the native path too", () => {
    const body = parseJson("{\"amount\":100,\"fee\":0.10,\"list\":[3]}") as Record<string, unknown>
    expect(isJsonNumber(body["amount"]) && body["amount"].value).toBe("100")
    expect(isJsonNumber(body["fee"]) && body["fee"].value).toBe("0.10")
    const plain = parseJson("{\"amount\":100,\"list\":[3,{\"n\":-4}]}") as { amount: unknown; list: [unknown, { n: unknown }] }
    expect(isJsonNumber(plain.amount) && plain.amount.value).toBe("100")
    expect(isJsonNumber(plain.list[0]) && plain.list[0].value).toBe("3")
    expect(isJsonNumber(plain.list[1].n) && plain.list[1].n.value).toBe("-4")
  })

  it("refuses a key named twice with different values, as lossless-json does", () => {
    expect(() => parseJson("{\"ref_trx\":\"a\",\"ref_trx\":\"b\"}")).toThrow(/Duplicate key/)
  })
})
