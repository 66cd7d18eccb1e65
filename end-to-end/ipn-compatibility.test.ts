import { createHmac } from "node:crypto"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createMerchantClient, type MerchantClient } from "../client/index.js"
import { type Received, type RecordingReceiverHost, startRecordingReceiverHost } from "./suites/recording-receiver-host.js"
import { until } from "./suites/until.js"

// Issue 33, item 6: a merchant's IPN compatibility settings, through the admin HTTP API of a running
// kit, judged by receivers written as the existing integrations are: one that takes X-Signature only
// as "sha256=" + hex, and a PHP one that re-encodes the parsed body with json_encode before hashing.

const ADMIN_TOKEN = "adm_ipn-compatibility-test-token"
const CUSTOMER = "Zoë Ωmega 𝄞"
const DESCRIPTION = "Order 7/12, \"gift\""

const hmacHex = (secret: string, bytes: string) => createHmac("sha256", secret).update(bytes).digest("hex")

/** PHP's default json_encode of a decoded value, written here apart from the kit: `\/`, and `\uXXXX` past ASCII. */
const phpJsonEncode = (value: unknown): string => {
  let out = ""
  for (const character of JSON.stringify(value)) {
    const point = character.codePointAt(0)!
    if (character === "/") out += "\\/"
    else if (point < 0x80) out += character
    else {
      const units = point > 0xffff ? [0xd800 + ((point - 0x10000) >> 10), 0xdc00 + ((point - 0x10000) & 0x3ff)] : [point]
      out += units.map((unit) => `\\u${unit.toString(16).padStart(4, "0")}`).join("")
    }
  }
  return out
}

describe("IPN compatibility settings per merchant", () => {
  let host: RecordingReceiverHost
  const admin = (method: string, path: string, body?: unknown) => host.admin(method, path, body)

  beforeAll(async () => {
    host = await startRecordingReceiverHost({ adminToken: ADMIN_TOKEN, masterKey: "58".repeat(32) })
  }, 60_000)
  afterAll(() => host?.close())

  it("spells X-Signature and the body as each receiver needs once asked, and the contract's bytes until then", async () => {
    const { origin, hook, received } = host
    const created = await admin("POST", "/merchants", { name: "Legacy Shop", status: "approved" })
    expect(created.status).toBe(201)
    const id = created.json.id
    expect(created.json).toMatchObject({ ipn_signature_format: "hex", ipn_json_style: "compact" })
    await admin("PUT", `/merchants/${id}/currencies`, { currency_codes: ["USD"] })
    await admin("POST", `/merchants/${id}/wallets`, { currency_code: "USD", environment: "sandbox" })
    const issued = (await admin("POST", `/merchants/${id}/credentials`, { environment: "sandbox" })).json
    const client: MerchantClient = createMerchantClient({
      baseUrl: origin, environment: "sandbox", merchantKey: issued.merchant_key, apiKey: issued.api_key,
      clientSecret: issued.client_secret, webhookSecret: issued.webhook_secret
    })
    const secret: string = issued.webhook_secret

    // The receivers: one comparing X-Signature with "sha256=" + hex only; one hashing PHP's re-encoding of the parsed body.
    const strictAccepts = (delivery: Received) => delivery.headers["x-signature"] === `sha256=${hmacHex(secret, delivery.body)}`
    const phpAccepts = (delivery: Received) => {
      const header = String(delivery.headers["x-signature"]).replace(/^sha256=/, "")
      return header === hmacHex(secret, phpJsonEncode(JSON.parse(delivery.body)))
    }
    const paid = async (reference: string) => {
      const session = await client.initiatePayment({
        payment_amount: "40.10", currency_code: "USD", ref_trx: reference, customer_name: CUSTOMER, description: DESCRIPTION,
        success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel", ipn_url: `${hook}/ipn`
      })
      await client.simulatePayment(session.info.trx_id, "success")
      const mine = () => received.find((entry) => entry.body.includes(session.info.trx_id))
      await until(() => mine() !== undefined, 20_000, `the IPN of ${reference}`)
      return mine()!
    }

    // Default: bare hex over the compact body; neither legacy receiver gets through.
    const plain = await paid("compat-1")
    expect(plain.headers["x-signature"]).toBe(hmacHex(secret, plain.body))
    expect(plain.body).toContain(`"customer_name":"${CUSTOMER}"`)
    expect(plain.body).toContain('"ipn_url":"http://127.0.0.1')
    expect([strictAccepts(plain), phpAccepts(plain)]).toEqual([false, false])

    // sha256=hex: the strict receiver gets through; the body is the same bytes.
    const prefixed = await admin("PATCH", `/merchants/${id}`, { ipn_signature_format: "sha256=hex" })
    expect(prefixed.json).toMatchObject({ ipn_signature_format: "sha256=hex", ipn_json_style: "compact" })
    const strict = await paid("compat-2")
    expect(strictAccepts(strict)).toBe(true)
    expect(strict.body).toContain(`"customer_name":"${CUSTOMER}"`)

    // php: the body as json_encode writes it, signed over those exact bytes, decoding to the same values.
    const php = await admin("PATCH", `/merchants/${id}`, { ipn_signature_format: "hex", ipn_json_style: "php" })
    expect(php.json).toMatchObject({ ipn_signature_format: "hex", ipn_json_style: "php" })
    expect((await admin("GET", `/merchants/${id}`)).json).toMatchObject({ ipn_signature_format: "hex", ipn_json_style: "php" })
    const reencoded = await paid("compat-3")
    expect(reencoded.body).toMatch(/^[\x20-\x7e]*$/)
    expect(reencoded.body).toContain('"customer_name":"Zo\\u00eb \\u03a9mega \\ud834\\udd1e"')
    expect(reencoded.body).toContain('"ipn_url":"http:\\/\\/127.0.0.1')
    expect(reencoded.body).toContain('"amount":40.1,')
    expect(reencoded.headers["x-signature"]).toBe(hmacHex(secret, reencoded.body))
    expect(phpAccepts(reencoded)).toBe(true)
    const values = JSON.parse(reencoded.body)
    expect(values.data).toMatchObject({ customer_name: CUSTOMER, description: DESCRIPTION, amount: 40.1, ref_trx: "compat-3" })
    expect(Object.keys(values)).toEqual(Object.keys(JSON.parse(plain.body)))
    // The kit's own verifier and a Standard Webhooks library take the re-spelled bytes as sent.
    expect(client.verifyWebhook({ rawBody: reencoded.body, signature: String(reencoded.headers["x-signature"]), environmentHeader: "sandbox" }))
      .toEqual({ valid: true, kind: "payment" })
    expect(() => new Webhook(secret).verify(reencoded.body, {
      "webhook-id": String(reencoded.headers["webhook-id"]),
      "webhook-timestamp": String(reencoded.headers["webhook-timestamp"]),
      "webhook-signature": String(reencoded.headers["webhook-signature"])
    })).not.toThrow()

    // A value outside the lists is a 422 naming the field, and changes nothing.
    const refused = await admin("PATCH", `/merchants/${id}`, { ipn_json_style: "pretty", ipn_signature_format: "base64" })
    expect(refused.status).toBe(422)
    expect(Object.keys(refused.json.errors).sort()).toEqual(["ipn_json_style", "ipn_signature_format"])
    expect((await admin("GET", `/merchants/${id}`)).json).toMatchObject({ ipn_signature_format: "hex", ipn_json_style: "php" })

    // Every change is in the audit log, with the fields it sent.
    const audit = (await admin("GET", `/audit?merchant_id=${id}`)).json.data.filter((entry: any) => entry.operation === "updateMerchant")
    expect(audit.map((entry: any) => [entry.status, entry.fields])).toEqual([
      [422, ["ipn_json_style", "ipn_signature_format"]],
      [200, ["ipn_json_style", "ipn_signature_format"]],
      [200, ["ipn_signature_format"]]
    ])
  }, 60_000)
})
