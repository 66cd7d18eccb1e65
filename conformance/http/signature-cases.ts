import { createHmac } from "node:crypto"
import { describe, expect, it } from "vitest"
import {
  expectError,
  expectHeaderRefused,
  expectInvalidCredentials,
  expectOk,
  SIGNATURE_INVALID,
  SIGNATURE_MISSING,
  TIMESTAMP_MISSING
} from "./assertions.js"
import { merchantCaller, readSettings, withSettings } from "./fixtures.js"
import { nowSeconds, sign, signHex, type Target, targetPath } from "./signing.js"

const PATH = "/api/v1/site-info"

/** Spec 5.4-5.6: X-Signature over `<timestamp>.<METHOD>.<path_with_query>.<raw_body>`, exactly. */
export const signatureCases = (target: () => Target) =>
  describe("authentication: request signature", () => {
    it("accepts `sha256=<hex>`, bare hex, upper-case hex and an upper-case `SHA256=` label", async () => {
      const caller = await merchantCaller(target())
      const timestamp = String(nowSeconds())
      const hex = signHex({ secret: caller.credentials.client_secret, timestamp, method: "GET", pathWithQuery: targetPath(target(), PATH) })
      expect(hex).toMatch(/^[0-9a-f]{64}$/)
      for (const signature of [`sha256=${hex}`, hex, `sha256=${hex.toUpperCase()}`, hex.toUpperCase(), `SHA256=${hex}`]) {
        expectOk(await caller.call({ timestamp, signature }))
      }
    })

    it("signs the payload exactly as the spec writes it, checked with a hand-built HMAC", async () => {
      const caller = await merchantCaller(target())
      const timestamp = String(nowSeconds())
      const mac = (payload: string) => createHmac("sha256", caller.credentials.client_secret).update(payload).digest("hex")
      const path = targetPath(target(), PATH)
      expectOk(await caller.call({ timestamp, signature: `sha256=${mac(`${timestamp}.GET.${path}.`)}` }))
      // The method is upper case, the payload of a bodiless GET ends with a dot, the parts are joined by dots.
      for (const payload of [`${timestamp}.get.${path}.`, `${timestamp}.GET.${path}`, `${timestamp}GET${path}`, `${timestamp}.GET.${path}.\n`]) {
        expectHeaderRefused(await caller.call({ timestamp, signature: `sha256=${mac(payload)}` }), "X-Signature", SIGNATURE_INVALID)
      }
    })

    it("refuses a missing or empty X-Signature, naming the header", async () => {
      const caller = await merchantCaller(target())
      expectHeaderRefused(await caller.call({ signature: null }), "X-Signature", SIGNATURE_MISSING)
      expectHeaderRefused(await caller.call({ signature: "" }), "X-Signature", SIGNATURE_MISSING)
    })

    it("refuses malformed signatures: truncated, padded, non-hex, another algorithm, a list", async () => {
      const caller = await merchantCaller(target())
      const timestamp = String(nowSeconds())
      const hex = signHex({ secret: caller.credentials.client_secret, timestamp, method: "GET", pathWithQuery: targetPath(target(), PATH) })
      const forms = [
        `sha256=${hex.slice(0, 63)}`,
        `sha256=${hex}0`,
        `sha256=${hex.slice(0, 63)}g`,
        `sha512=${hex}`,
        `sha256:${hex}`,
        `sha256=${hex},sha256=${hex}`,
        "sha256=",
        Buffer.from(hex, "hex").toString("base64")
      ]
      for (const signature of forms) {
        expectHeaderRefused(await caller.call({ timestamp, signature }), "X-Signature", SIGNATURE_INVALID)
      }
    })

    it("refuses a signature made with the wrong secret", async () => {
      const caller = await merchantCaller(target())
      const other = await merchantCaller(target())
      expectHeaderRefused(await caller.call({ secret: other.credentials.client_secret }), "X-Signature", SIGNATURE_INVALID)
      expectHeaderRefused(await caller.call({ secret: `${caller.credentials.client_secret}x` }), "X-Signature", SIGNATURE_INVALID)
      expectHeaderRefused(await caller.call({ secret: caller.credentials.webhook_secret }), "X-Signature", SIGNATURE_INVALID)
      expectHeaderRefused(await caller.call({ secret: caller.credentials.api_key }), "X-Signature", SIGNATURE_INVALID)
    })

    it("covers the timestamp: a signature for one second does not pass with another X-Timestamp", async () => {
      const caller = await merchantCaller(target())
      const now = nowSeconds()
      const signature = sign({ secret: caller.credentials.client_secret, timestamp: String(now - 1), method: "GET", pathWithQuery: targetPath(target(), PATH) })
      expectHeaderRefused(await caller.call({ timestamp: String(now), signature }), "X-Signature", SIGNATURE_INVALID)
    })

    it("covers the query string exactly as sent", async () => {
      const caller = await merchantCaller(target())
      const timestamp = String(nowSeconds())
      const secret = caller.credentials.client_secret
      expectOk(await caller.call({ path: `${PATH}?lang=en&x=1` }))
      const withoutQuery = sign({ secret, timestamp, method: "GET", pathWithQuery: targetPath(target(), PATH) })
      expectHeaderRefused(await caller.call({ path: `${PATH}?lang=en`, timestamp, signature: withoutQuery }), "X-Signature", SIGNATURE_INVALID)
      const reordered = sign({ secret, timestamp, method: "GET", pathWithQuery: targetPath(target(), `${PATH}?x=1&lang=en`) })
      expectHeaderRefused(await caller.call({ path: `${PATH}?lang=en&x=1`, timestamp, signature: reordered }), "X-Signature", SIGNATURE_INVALID)
      const decoded = sign({ secret, timestamp, method: "GET", pathWithQuery: targetPath(target(), `${PATH}?q=a b`) })
      expectHeaderRefused(await caller.call({ path: `${PATH}?q=a%20b`, timestamp, signature: decoded }), "X-Signature", SIGNATURE_INVALID)
    })

    it("under a base path, accepts a signature over the path relative to the base URL as well as over the full path", async () => {
      const caller = await merchantCaller(target())
      const timestamp = String(nowSeconds())
      const secret = caller.credentials.client_secret
      const path = `${PATH}?lang=en&x=1`
      // Spec paths are relative to {base_url}: a client given the base URL signs /api/v1/...
      expectOk(await caller.call({ path, timestamp, signature: sign({ secret, timestamp, method: "GET", pathWithQuery: path }) }))
      expectOk(await caller.call({ path, timestamp, signature: sign({ secret, timestamp, method: "GET", pathWithQuery: targetPath(target(), path) }) }))
      // Any other prefix is a different path: refused.
      for (const other of [`/elsewhere${path}`, `${targetPath(target(), "")}/v2${path}`, `/api${path}`]) {
        const signature = sign({ secret, timestamp, method: "GET", pathWithQuery: other })
        expectHeaderRefused(await caller.call({ path, timestamp, signature }), "X-Signature", SIGNATURE_INVALID)
      }
    })

    it("covers the exact body bytes: the same JSON re-serialised with other whitespace fails", async () => {
      const caller = await merchantCaller(target())
      const timestamp = String(nowSeconds())
      const secret = caller.credentials.client_secret
      const signedBody = JSON.stringify({ amount: 10.5, currency: "USD" })
      const signature = sign({ secret, timestamp, method: "GET", pathWithQuery: targetPath(target(), PATH), body: signedBody })
      expectOk(await caller.call({ timestamp, signature, body: signedBody }))
      const reserialised = JSON.stringify(JSON.parse(signedBody), null, 2)
      expectHeaderRefused(await caller.call({ timestamp, signature, body: reserialised }), "X-Signature", SIGNATURE_INVALID)
      expectHeaderRefused(await caller.call({ timestamp, signature, body: `${signedBody}\n` }), "X-Signature", SIGNATURE_INVALID)
      // A body sent but left out of the signature.
      const bodiless = sign({ secret, timestamp, method: "GET", pathWithQuery: targetPath(target(), PATH) })
      expectHeaderRefused(await caller.call({ timestamp, signature: bodiless, body: signedBody }), "X-Signature", SIGNATURE_INVALID)
    })

    it("signs bytes, not text: a body that is not UTF-8 verifies over its raw bytes", async () => {
      const caller = await merchantCaller(target())
      const body = Uint8Array.from([0x7b, 0xff, 0xfe, 0x00, 0xc3, 0x28, 0x7d])
      expectOk(await caller.call({ body }))
      const timestamp = String(nowSeconds())
      const asText = sign({ secret: caller.credentials.client_secret, timestamp, method: "GET", pathWithQuery: targetPath(target(), PATH), body: Buffer.from(body).toString("utf8") })
      expectHeaderRefused(await caller.call({ timestamp, signature: asText, body }), "X-Signature", SIGNATURE_INVALID)
    })

    it("with signature checking switched off, accepts valid keys without X-Timestamp and X-Signature, and still checks the keys", async () => {
      const caller = await merchantCaller(target())
      expectError(await caller.call({ timestamp: null, signature: null }), { status: 401, errorCode: "INVALID_CREDENTIALS", message: TIMESTAMP_MISSING })
      await withSettings(target(), { signature_required: false }, async () => {
        expect((await readSettings(target())).signature_required).toBe(false)
        expectOk(await caller.call({ timestamp: null, signature: null }))
        expectInvalidCredentials(await caller.call({ timestamp: null, signature: null, apiKey: `test_ak_${"2".repeat(43)}` }))
        expectInvalidCredentials(await caller.call({ timestamp: null, signature: null, environment: "production" }))
      })
      // Restored: the same unsigned call is refused again.
      expectError(await caller.call({ timestamp: null, signature: null }), { status: 401, errorCode: "INVALID_CREDENTIALS", message: TIMESTAMP_MISSING })
    })
  })
