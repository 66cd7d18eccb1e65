import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { sha256Hex } from "../../../core/signing/hmac.js"
import { signStandardWebhook } from "../../../core/signing/standard-webhook-signature.js"
import { signWebhook } from "../../../core/signing/webhook-signature.js"
import { ExitCode } from "../cli-command.js"
import { fakeContext } from "./testing/fake-context.js"
import { verifySignatureCommand } from "./verify-signature.js"

const WEBHOOK_SECRET = "whsec_c2VjcmV0LW9mLXRoZS13ZWJob29rLWVuZHBvaW50"
const CLIENT_SECRET = "client-secret-of-the-sandbox"
const NOW = 1_800_000_000
const payment = `{"event":"payment.completed","trx_id":"TRX1","amount":100.50,"note":"caf\u00e9 / bar"}`
const refund = `{"event":"payment.refunded","status":"refunded","trx_id":"TRX1","refund_amount":5}`

/** The headers the kit sends for `body` signed with `secret` at `sentAt`. */
const deliveryHeaders = (body: string, secret: string, sentAt = NOW - 10) => [
  `X-Signature: ${signWebhook(secret, body)}`,
  "X-Environment: sandbox",
  "webhook-id: evt_1",
  `webhook-timestamp: ${sentAt}`,
  `webhook-signature: ${signStandardWebhook(secret, "evt_1", sentAt, body)}`
]

/** Runs the command as the dispatcher would: the global --webhook-secret / --client-secret (or their variables) arrive as settings. */
const run = async (args: ReadonlyArray<string>, options: { stdin?: string; json?: boolean; webhookSecret?: string; clientSecret?: string } = {}) => {
  const fake = fakeContext({
    stdin: options.stdin ?? "",
    json: options.json ?? false,
    settings: { webhookSecret: options.webhookSecret, clientSecret: options.clientSecret ?? "" }
  })
  const code = await verifySignatureCommand({ nowSeconds: () => NOW }).run(fake.context, args)
  return { code, ...fake }
}

const withHeaders = (headers: ReadonlyArray<string>) => headers.flatMap((header) => ["--header", header])

describe("verify-signature", () => {
  it("verifies a delivery in both forms read from standard input, with the webhook secret of the settings, and never prints it", async () => {
    const { code, text } = await run(withHeaders(deliveryHeaders(payment, WEBHOOK_SECRET)), { stdin: payment, webhookSecret: WEBHOOK_SECRET })
    expect(code).toBe(ExitCode.ok)
    expect(text()).toContain("X-Signature: verified")
    expect(text()).toContain("Standard Webhooks: verified")
    expect(text()).toContain(`sha256 ${sha256Hex(payment)}`)
    expect(text()).toContain(`"evt_1.${NOW - 10}." followed by the body`)
    expect(text()).not.toContain(WEBHOOK_SECRET)
  })

  it("names the trailing line end a pasted body gained, with the digest of the bytes that were signed", async () => {
    const { code, text } = await run(["--secret", WEBHOOK_SECRET, ...withHeaders(deliveryHeaders(payment, WEBHOOK_SECRET))], { stdin: `${payment}\n` })
    expect(code).toBe(ExitCode.failed)
    expect(text()).toContain("X-Signature: not verified")
    expect(text()).toContain("a line end was added after the body")
    expect(text()).toContain(`The signed body is ${Buffer.byteLength(payment)} bytes, sha256 ${sha256Hex(payment)}`)
  })

  it("names a pretty-printed body, its numbers' digits kept", async () => {
    const pretty = JSON.stringify(JSON.parse(payment), null, 2).replace("100.5", "100.50")
    const { code, text } = await run(["--secret", WEBHOOK_SECRET, ...withHeaders(deliveryHeaders(payment, WEBHOOK_SECRET))], { stdin: pretty })
    expect(code).toBe(ExitCode.failed)
    expect(text()).toContain("the JSON was re-serialized with whitespace")
  })

  it("says how old a timestamp is, and that the signature itself matches", async () => {
    const { code, text } = await run(["--secret", WEBHOOK_SECRET, ...withHeaders(deliveryHeaders(payment, WEBHOOK_SECRET, NOW - 3600))], { stdin: payment })
    expect(code).toBe(ExitCode.failed)
    expect(text()).toContain("X-Signature: verified")
    expect(text()).toContain("timestamp too old: webhook-timestamp")
    expect(text()).toContain("is 3600 s old, past the tolerance of 300 s")
    expect(text()).toContain("The signature itself matches: to check an old delivery, pass --tolerance 3660.")
    const widened = await run(["--secret", WEBHOOK_SECRET, "--tolerance", "3660", ...withHeaders(deliveryHeaders(payment, WEBHOOK_SECRET, NOW - 3600))], { stdin: payment })
    expect(widened.code).toBe(ExitCode.ok)
  })

  it("verifies a refund event with the client secret, and names swapped secrets as the wrong kind", async () => {
    const headers = withHeaders(deliveryHeaders(refund, CLIENT_SECRET))
    const right = await run(headers, { stdin: refund, webhookSecret: WEBHOOK_SECRET, clientSecret: CLIENT_SECRET })
    expect(right.code).toBe(ExitCode.ok)
    expect(right.text()).toContain("a refund event, signed with the client secret")
    const swapped = await run(["--secret", CLIENT_SECRET, ...headers], { stdin: refund, clientSecret: WEBHOOK_SECRET })
    expect(swapped.code).toBe(ExitCode.failed)
    expect(swapped.text()).toContain("wrong secret kind: it verifies with what was given as the webhook secret, but a refund event is signed with the client secret (spec 6.3)")
  })

  it("asks for the client secret when a refund event comes with only the webhook secret", async () => {
    const { code, text } = await run(["--secret", WEBHOOK_SECRET, `--header=X-Signature: ${signWebhook(CLIENT_SECRET, refund)}`], { stdin: refund })
    expect(code).toBe(ExitCode.failed)
    expect(text()).toContain("a refund event is signed with the client secret")
    expect(text()).toContain("pass --client-secret or CLIENT_SECRET")
  })

  it("names the missing headers", async () => {
    const none = await run(["--secret", WEBHOOK_SECRET, "--header", "X-Environment: sandbox"], { stdin: payment })
    expect(none.code).toBe(ExitCode.failed)
    expect(none.text()).toContain("no X-Signature or webhook-signature header")
    expect(none.text()).toContain("headers given: x-environment")
    const noId = await run(["--secret", WEBHOOK_SECRET, "--header", `webhook-timestamp: ${NOW}`, "--header", `webhook-signature: ${signStandardWebhook(WEBHOOK_SECRET, "evt_1", NOW, payment)}`], { stdin: payment })
    expect(noId.code).toBe(ExitCode.failed)
    expect(noId.text()).toContain("webhook-signature is there but webhook-id is missing")
  })

  it("says a wrong secret does not match, after trying the body's usual changes", async () => {
    const { code, text } = await run(["--secret", "whsec_another", ...withHeaders(deliveryHeaders(payment, WEBHOOK_SECRET))], { stdin: payment })
    expect(code).toBe(ExitCode.failed)
    expect(text()).toContain("the signature does not match these bytes with the webhook secret")
    expect(text()).not.toContain("whsec_another")
  })

  it("reads the payload and a curl-style header dump from files, and writes one JSON verdict under --json", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mp-verify-"))
    writeFileSync(join(dir, "body.json"), payment)
    writeFileSync(join(dir, "headers.txt"), ["POST /ipn HTTP/1.1", ...deliveryHeaders(payment, WEBHOOK_SECRET), ""].join("\r\n"))
    const { code, written } = await run(["--payload-file", join(dir, "body.json"), "--headers-file", join(dir, "headers.txt"), "--secret", WEBHOOK_SECRET], { json: true })
    expect(code).toBe(ExitCode.ok)
    expect(written.data).toEqual([expect.objectContaining({ verified: true, kind: "payment", findings: [expect.objectContaining({ form: "X-Signature", verified: true }), expect.objectContaining({ form: "Standard Webhooks", verified: true })] })])
  })

  it("answers usage errors with 2 and a missing secret with 3", async () => {
    expect((await run(["--nope"], { stdin: payment })).code).toBe(ExitCode.usage)
    expect((await run(["--secret", "s", "--header", "no colon"], { stdin: payment })).code).toBe(ExitCode.usage)
    expect((await run(["--secret", "s", "--tolerance", "soon"], { stdin: payment })).code).toBe(ExitCode.usage)
    expect((await run(["--secret", "s", "--payload-file", "/nonexistent/body.json"])).code).toBe(ExitCode.usage)
    const missing = await run([], { stdin: payment })
    expect(missing.code).toBe(ExitCode.config)
    expect(missing.written.problems.join("\n")).toContain("no secret to check with")
  })
})
