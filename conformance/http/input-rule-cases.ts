import { describe, expect, it } from "vitest"
import { expectError, expectOk } from "./assertions.js"
import { expectHtml, formWith, getPage, submit } from "./checkout-html.js"
import { createShop, initiate, paymentBody } from "./payment-fixtures.js"
import { paidPayment, refund, refundState } from "./refund-fixtures.js"
import type { Target } from "./signing.js"

const fieldRefused = (field: string) => ({ status: 422, errorCode: "VALIDATION_FAILED", fields: [field] }) as const

/** A URL as a client may read it: ASCII only, no control character, parsed to itself. */
const expectWireSafeUrl = (text: string) => {
  expect(text).toMatch(/^[\x21-\x7e]+$/)
  expect(new URL(text).href).toBe(text)
}

/** Text fields that end up in `Location` headers, logs and webhook bodies (issue 10, item 7). */
export const inputRuleCases = (target: () => Target) =>
  describe("input rules: URLs, email addresses, references, webhook targets", () => {
    it.each([
      ["a non-Latin-1 character", "https://shop.example/back/\u0100"],
      ["a control character", "https://shop.example/back/\u0001"],
      ["an emoji", "https://shop.example/back/\u{1F600}?q=\u{1F600}"],
      ["a DEL", "https://shop.example/back\u007f"],
      ["a line break", "https://shop.example/back\r\nSet-Cookie: a=b"]
    ])("a cancel_redirect holding %s is refused (422) or kept encoded, and the cancel never fails", async (_, url) => {
      const shop = await createShop(target())
      const response = await initiate(shop.sandbox, paymentBody("10", { cancel_redirect: url }))
      if (response.status === 422) {
        expectError(response, { status: 422, errors: { cancel_redirect: [expect.any(String)] as any } })
        return
      }
      const session = expectOk(response)
      const stored = session.info.cancel_redirect as string
      expectWireSafeUrl(stored)
      const page = expectHtml(await getPage(target(), session.payment_url), 200)
      const cancelled = await submit(target(), formWith(page, "cancel-checkout"), session.payment_url)
      expect(cancelled.status, cancelled.text).toBe(303)
      const location = cancelled.headers["location"]!
      expectWireSafeUrl(location)
      expect(location.startsWith(stored.split("?")[0]!)).toBe(true)
    })

    it.each([
      "https://user:pass@evil.example/",
      "user@evil.example/path",
      "a@b@shop.example",
      "user:x@shop.example",
      "us er@shop.example",
      "user@shop.example\r\nBcc: all@shop.example",
      "user@shop..example",
      "user@-shop.example",
      ".user@shop.example",
      "\"quoted\"@shop.example",
      "user@[127.0.0.1]",
      "user@shop.123",
      `${"l".repeat(65)}@shop.example`
    ])("refuses customer_email %j with 422 on customer_email", async (email) => {
      const shop = await createShop(target())
      expectError(await initiate(shop.sandbox, paymentBody("10", { customer_email: email })), fieldRefused("customer_email"))
    })

    it.each(["first.last+tag@shop.example", "o'brien@mail.shop.co.uk", "user_1@xn--bcher-kva.example", "josé@bücher.example"])(
      "accepts customer_email %j",
      async (email) => {
        const shop = await createShop(target())
        expect(expectOk(await initiate(shop.sandbox, paymentBody("10", { customer_email: email }))).info.customer_email).toBe(email)
      }
    )

    const badReferences = [
      ["a line feed", "order\n42"],
      ["a carriage return", "order\r42"],
      ["a tab", "order\t42"],
      ["a bell", "order\u000742"],
      ["a C1 control", "order\u008542"],
      ["a right-to-left override", "order\u202E24"],
      ["a left-to-right isolate", "order\u206642\u2069"],
      ["a right-to-left mark", "order\u200F42"],
      ["a line separator", "order\u202842"],
      ["a lone space", " "],
      ["only whitespace", " \u00a0 "]
    ] as const

    it.each(badReferences)("refuses a ref_trx holding %s with 422 on ref_trx", async (_, reference) => {
      const shop = await createShop(target())
      expectError(await initiate(shop.sandbox, paymentBody("10", { ref_trx: reference })), fieldRefused("ref_trx"))
    })

    it("refuses each bad ref_refund with 422 on ref_refund, and refunds nothing", async () => {
      const shop = await createShop(target())
      const trxId = await paidPayment(shop)
      for (const [, reference] of badReferences) {
        expectError(await refund(shop.sandbox, { trx_id: trxId, ref_refund: reference }, "1"), { ...fieldRefused("ref_refund"), fields: ["ref_refund"] })
      }
      expect(await refundState(shop.sandbox, trxId)).toMatchObject({ refunded: "0", fully: false })
    })

    it("keeps references with visible Unicode and inner spaces", async () => {
      const shop = await createShop(target())
      for (const reference of ["Bestellung Nr. 42 – café", "注文-42", "order 42 \u{1F4E6}"]) {
        expect(expectOk(await initiate(shop.sandbox, paymentBody("10", { ref_trx: reference }))).info.ref_trx).toBe(reference)
      }
    })

    it.each([
      "http://127.0.0.1:8080/ipn",
      "http://10.0.0.7/ipn",
      "http://169.254.169.254/latest/meta-data/",
      "http://[::1]/ipn",
      "http://[fe80::1]/ipn",
      "http://0x7f.1/ipn",
      "http://localhost:3000/ipn",
      "https://shop.localhost/ipn"
    ])("refuses ipn_url %s at once with 422 on ipn_url, unless the host allows private webhook targets", async (ipnUrl) => {
      const shop = await createShop(target())
      const response = await initiate(shop.sandbox, paymentBody("10", { ipn_url: ipnUrl }))
      if (target().allowsPrivateWebhookTargets === true) expectOk(response)
      else expectError(response, { ...fieldRefused("ipn_url"), fields: ["ipn_url"] })
    })

    it.each(["ftp://shop.example/ipn", "https://user:secret@shop.example/ipn"])("refuses ipn_url %s on any host", async (ipnUrl) => {
      const shop = await createShop(target())
      expectError(await initiate(shop.sandbox, paymentBody("10", { ipn_url: ipnUrl })), fieldRefused("ipn_url"))
    })

    it("tells an ipn_url's problem with the other fields' in one answer", async () => {
      const shop = await createShop(target())
      const body = expectError(await initiate(shop.sandbox, paymentBody("10", { ipn_url: "ftp://shop.example/ipn", customer_email: "nope" })), {
        status: 422,
        fields: ["ipn_url", "customer_email"]
      })
      expect(Object.keys(body.errors).sort()).toEqual(["customer_email", "ipn_url"])
    })
  })
