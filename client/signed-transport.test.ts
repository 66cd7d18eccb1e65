import { describe, expect, it } from "vitest"
import { verifyRequestSignature } from "../core/signing/request-signature.js"
import { MerchantApiError } from "./client-errors.js"
import { createMerchantClient } from "./merchant-client.js"
import { targetUrl } from "./signed-transport.js"
import { recordingFetch } from "./testing/recording-fetch.js"

/**
 * What the client puts on the wire and how it reads odd answers, checked without a host (the
 * end-to-end files prove the host accepts it): canned answers stand in for the network here.
 */
const clientWith = (answer: () => Response) => {
  const recorded = recordingFetch(Array.from({ length: 10 }, () => answer))
  const client = createMerchantClient({
    baseUrl: "https://shop.example/payments/",
    merchantKey: "test_mk",
    apiKey: "test_ak",
    clientSecret: "secret-1",
    environment: "sandbox",
    retries: 0,
    fetch: recorded.fetch
  })
  return { client, recorded }
}

const json = (status: number, text: string) => () => new Response(text, { status, headers: { "content-type": "application/json" } })

describe("signed transport", () => {
  it("signs <ts>.<METHOD>.<full path with query>.<exact body> with the client secret, as spec 5 says", async () => {
    const { client, recorded } = clientWith(json(200, '{"data":[],"meta":{"current_page":2,"per_page":5,"total":0,"last_page":1}}'))
    await client.listSubscriptions({ page: 2, per_page: 5 })
    await client.refundPayment({ trx_id: "SANDBOX_1", amount: "1.10" })
    const [list, refund] = recorded.attempts
    expect(list!.url).toBe("https://shop.example/payments/api/v1/subscriptions?page=2&per_page=5")
    expect(refund!.body).toBe('{"trx_id":"SANDBOX_1","amount":1.10}')
    for (const [attempt, pathWithQuery] of [[list!, "/payments/api/v1/subscriptions?page=2&per_page=5"], [refund!, "/payments/api/v1/refund-payment"]] as const) {
      expect(attempt.headers["x-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/)
      const parts = { timestamp: attempt.headers["x-timestamp"]!, method: attempt.method, pathWithQuery, rawBody: attempt.body }
      expect(verifyRequestSignature("secret-1", parts, attempt.headers["x-signature"])).toBe(true)
    }
    expect(list!.headers).toMatchObject({ "x-environment": "sandbox", "x-merchant-key": "test_mk", "x-api-key": "test_ak", accept: "application/json" })
    expect(list!.headers["idempotency-key"]).toBeUndefined()
    expect(refund!.headers["content-type"]).toBe("application/json")
  })

  it("reads a 2xx that is not JSON, and an error without a 7.3 body, as MerchantApiError", async () => {
    const html = clientWith(() => new Response("<html>ok</html>", { status: 200 }))
    const notJson = await html.client.siteInfo().catch((error: unknown) => error)
    expect(notJson).toBeInstanceOf(MerchantApiError)
    expect(notJson).toMatchObject({ status: 200, errorCode: undefined, message: "GET /payments/api/v1/site-info answered HTTP 200 with a body that is not JSON." })

    const gateway = clientWith(() => new Response("Bad gateway", { status: 502 }))
    await expect(gateway.client.siteInfo()).rejects.toMatchObject({ status: 502, errorCode: undefined, errors: {}, body: undefined })
  })

  it("refuses before sending: an amount that is not a decimal string, an empty or dot id", async () => {
    const { client, recorded } = clientWith(json(200, "{}"))
    // @ts-expect-error amounts are decimal strings, never JS numbers
    await expect(client.refundPayment({ trx_id: "T", amount: 1.1 })).rejects.toThrow(TypeError)
    for (const id of ["", ".", ".."]) await expect(client.getSubscription(id)).rejects.toThrow(TypeError)
    expect(() => createMerchantClient({ baseUrl: "https://x", merchantKey: "k", apiKey: "a", clientSecret: "s", environment: "sandbox", retries: -1 }))
      .toThrow(TypeError)
    expect(recorded.attempts).toHaveLength(0)
  })

  it("keeps the base URL's path and drops its trailing slashes", () => {
    expect(targetUrl("https://a.example", "/api/v1/x").href).toBe("https://a.example/api/v1/x")
    expect(targetUrl("https://a.example/", "/api/v1/x?q=1").href).toBe("https://a.example/api/v1/x?q=1")
    expect(targetUrl("https://a.example/pay//", "/api/v1/x").href).toBe("https://a.example/pay/api/v1/x")
  })
})
