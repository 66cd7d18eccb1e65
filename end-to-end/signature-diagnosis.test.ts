import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { apiRequest, sign, type Target } from "../conformance/http/signing.js"
import { Authenticator, type PresentedRequest } from "../core/merchants/authenticator.js"
import { createMerchant, issueCredentials } from "../core/merchants/merchant-admin.js"
import { sha256Hex } from "../core/signing/hmac.js"
import { createMerchantPayments, type MerchantPayments } from "../hosts/embedding/index.js"
import { kitLayer } from "../hosts/kit-layer.js"
import { testKitConfig } from "./suites/test-kit-config.js"

const encoder = new TextEncoder()
const nowSeconds = () => Math.floor(Date.now() / 1000)

/**
 * A refusal for a bad timestamp or signature carries who called and what the server signed, with
 * the likely mistake; the HTTP answer stays the contract's 401, word for word.
 */
describe("the authenticator explains a refused signature to the caller it knows", () => {
  let runtime: ManagedRuntime.ManagedRuntime<Authenticator, unknown>
  let merchantId = ""
  const keys = { merchantKey: "", apiKey: "", sandboxSecret: "", productionSecret: "" }

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "mp-signature-diagnosis-"))
    // Behind a proxy that strips /payments: the kit itself is not mounted.
    runtime = ManagedRuntime.make(kitLayer(testKitConfig({ kind: "sqlite", filename: join(dir, "store.db") }, { baseUrl: "https://pay.example/payments" }))) as typeof runtime
    await runtime.runPromise(Effect.gen(function*() {
      const merchant = yield* createMerchant({ name: "Diagnosed Shop", status: "approved" })
      const sandbox = yield* issueCredentials(merchant.id, "sandbox")
      const production = yield* issueCredentials(merchant.id, "production")
      merchantId = String(merchant.id)
      Object.assign(keys, { merchantKey: sandbox.merchantKey, apiKey: sandbox.apiKey, sandboxSecret: sandbox.clientSecret, productionSecret: production.clientSecret })
    }) as Effect.Effect<void, unknown, never>)
  })
  afterAll(() => runtime.dispose())

  const body = '{"payment_amount":"5.00","currency_code":"USD"}'
  const presented = (changes: Partial<PresentedRequest> & { readonly signedWith?: { secret?: string; path?: string } } = {}): PresentedRequest => {
    const { signedWith = {}, ...rest } = changes
    const timestamp = rest.timestamp ?? String(nowSeconds())
    return {
      environmentHeader: "sandbox", defaultEnvironment: undefined, merchantKey: keys.merchantKey, apiKey: keys.apiKey,
      timestamp, method: "POST", pathWithQuery: "/api/v1/initiate-payment?lang=en", relativePathWithQuery: "/api/v1/initiate-payment?lang=en",
      rawBody: encoder.encode(body), nowSeconds: nowSeconds(),
      signature: sign({ secret: signedWith.secret ?? keys.sandboxSecret, timestamp, method: "POST", pathWithQuery: signedWith.path ?? "/api/v1/initiate-payment?lang=en", body }),
      ...rest
    }
  }
  const refusal = (request: PresentedRequest) =>
    runtime.runPromise(Effect.flip(Effect.flatMap(Authenticator, (authenticator) => authenticator.authenticate(request))))

  it("a signature made with the production secret: invalid_signature, the known caller, and the cause without the secret", async () => {
    const refused = await refusal(presented({ signedWith: { secret: keys.productionSecret } }))
    expect(refused._tag).toBe("AuthenticationFailed")
    if (refused._tag !== "AuthenticationFailed") return
    expect(refused.reason).toBe("invalid_signature")
    expect(refused.knownCaller).toEqual({ merchantId, environment: "sandbox" })
    expect(refused.signatureCheck?.cause).toBe("wrong_environment_secret")
    expect(refused.signatureCheck?.canonical).toMatch(new RegExp(`^[0-9]+\\.POST\\./api/v1/initiate-payment\\?lang=en\\.${sha256Hex(body)}$`))
    expect(JSON.stringify(refused.signatureCheck)).not.toContain(keys.productionSecret)
    expect(JSON.stringify(refused.signatureCheck)).not.toContain(keys.sandboxSecret)
  })

  it("names the query left out, the public base path signed behind a proxy, and a stale or missing timestamp", async () => {
    const causeOf = async (request: PresentedRequest) => {
      const refused = await refusal(request)
      return refused._tag === "AuthenticationFailed" ? [refused.reason, refused.signatureCheck?.cause, refused.knownCaller?.merchantId] : [refused._tag]
    }
    expect(await causeOf(presented({ signedWith: { path: "/api/v1/initiate-payment" } }))).toEqual(["invalid_signature", "query_string_missing", merchantId])
    expect(await causeOf(presented({ signedWith: { path: "/payments/api/v1/initiate-payment?lang=en" } }))).toEqual(["invalid_signature", "base_path", merchantId])
    expect(await causeOf(presented({ timestamp: String(nowSeconds() - 3600) }))).toEqual(["stale_timestamp", "stale_timestamp", merchantId])
    expect(await causeOf(presented({ timestamp: undefined }))).toEqual(["missing_timestamp", "missing_timestamp", merchantId])
    expect(await causeOf(presented({ signature: undefined }))).toEqual(["missing_signature", "missing_signature", merchantId])
  })

  it("a wrong API key for a real merchant key names the caller but checks no signature; an unknown key names no one", async () => {
    const wrongKey = await refusal(presented({ apiKey: `${keys.apiKey}x` }))
    expect(wrongKey).toMatchObject({ reason: "invalid_credentials", knownCaller: { merchantId, environment: "sandbox" } })
    expect(wrongKey).not.toHaveProperty("signatureCheck")
    const stranger = await refusal(presented({ merchantKey: `${keys.merchantKey.slice(0, -2)}zz` }))
    expect(stranger).toMatchObject({ reason: "invalid_credentials" })
    expect(stranger).not.toHaveProperty("knownCaller")
  })
})

describe("the 401 answer to a diagnosed signature is the contract's, unchanged", () => {
  const scratch = mkdtempSync(join(tmpdir(), "mp-signature-diagnosis-http-"))
  const lines: Array<string> = []
  let payments: MerchantPayments
  let server: Server
  let target: Target

  beforeAll(async () => {
    payments = await createMerchantPayments({
      database: `sqlite:${join(scratch, "p.db")}`, masterKey: "45".repeat(32), adminToken: "diagnosis-admin",
      baseUrl: "https://shop.example", settings: { rateLimitPerMinute: 1_000_000 },
      logging: { level: "debug", write: (line) => void lines.push(line) }
    })
    server = createServer(payments.handler)
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    target = { baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`, adminToken: "diagnosis-admin" }
  })
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
    await payments.close()
    rmSync(scratch, { recursive: true, force: true })
  })

  it("query left out of the signed path: the same body as any invalid signature, and no secret in the log", async () => {
    const merchant = await payments.admin.merchants.create({ name: "Answered", status: "approved" })
    const credentials = await payments.admin.credentials.issue(merchant.id, "sandbox")
    const timestamp = String(nowSeconds())
    const refused = await apiRequest(target, {
      path: "/api/v1/site-info?lang=en", environment: "sandbox", merchantKey: credentials.merchant_key, apiKey: credentials.api_key,
      timestamp, signature: sign({ secret: credentials.client_secret, timestamp, method: "GET", pathWithQuery: "/api/v1/site-info" })
    })
    // A signature no diagnosis can explain: the answer every invalid signature got before.
    const undiagnosed = await apiRequest(target, {
      path: "/api/v1/site-info?lang=en", environment: "sandbox", merchantKey: credentials.merchant_key, apiKey: credentials.api_key,
      timestamp, signature: `sha256=${"0".repeat(64)}`
    })
    expect(refused.status).toBe(401)
    const withoutTime = ({ timestamp: _, ...rest }: Record<string, unknown>) => rest
    expect(withoutTime(refused.json())).toEqual({
      success: false,
      message: "The request signature is invalid.",
      error_code: "INVALID_CREDENTIALS",
      errors: { "X-Signature": ["The request signature is invalid."] }
    })
    expect(withoutTime(refused.json())).toEqual(withoutTime(undiagnosed.json()))
    expect(Object.keys(refused.headers).sort()).toEqual(Object.keys(undiagnosed.headers).sort())
    expect(refused.text).not.toMatch(/canonical|query_string_missing|knownCaller|merchantId/)
    expect(lines.join("\n")).not.toContain(credentials.client_secret)
  })
})
