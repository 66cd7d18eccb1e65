import { HttpApp } from "@effect/platform"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../../adapters/http/app.js"
import { enqueueMail, type MailRequest } from "../../core/mail/enqueue-mail.js"
import { defaultMailPolicy, sendDueMail } from "../../core/mail/mail-dispatcher.js"
import type { MailKind } from "../../core/mail/mail-kind.js"
import { MailOutbox } from "../../core/mail/mail-outbox.js"
import { createMerchant } from "../../core/merchants/merchant-admin.js"
import { setPasswordWithLink } from "../../core/merchant-users/password-link.js"
import { signIn } from "../../core/merchant-users/sign-in.js"
import { createMerchantUser } from "../../core/merchant-users/user-admin.js"
import type { MerchantId } from "../../core/shared/ids.js"
import { fromIsoString } from "../../core/shared/instant.js"
import { atTestClockTime } from "../../core/shared/test-clock-time.js"
import { Transactor } from "../../core/shared/transactor.js"
import { defaultWebhookConfig, kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { signedRequest } from "../../testing/http/signed-client.js"
import { type SmtpCatcher, startSmtpCatcher } from "../../testing/mail/smtp-catcher.js"
import { sandboxShop } from "./sandbox-shop.js"
import { testKitConfig } from "./test-kit-config.js"

// The mail outbox on the real kit over SQLite, sending to real SMTP servers in this process: what
// is received (subject, text and HTML parts, in the mail's language), retries, giving up, a rolled
// back change, sandbox mail kept apart from the production server. The dispatcher's passes are run
// here one by one (sendDueMail), so every step is seen; the loop itself is exercised by the
// dashboard's sandbox mail test.

const policy = { ...defaultMailPolicy, retryDelaysMillis: [0, 0] }

/** The suite on a store: `store` is asked once per kit (the first with SMTP, the second without). */
export const mailOutboxSuite = (name: string, store: () => StoreConfig, quietStore: () => StoreConfig) => {
describe(`mail outbox (${name})`, () => {
  let production: SmtpCatcher
  let sandbox: SmtpCatcher
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let merchantId: MerchantId

  const run = <A, E>(effect: Effect.Effect<A, E, any>): Promise<A> => runtime.runPromise(effect as Effect.Effect<A, E, never>)
  const enqueue = <K extends MailKind>(request: Omit<MailRequest<K>, "merchantId">) =>
    run(Effect.flatMap(Transactor, (store) => store.withTransaction(enqueueMail({ ...request, merchantId }))))
  const pass = () => run(sendDueMail(20, policy))
  const stored = async (id: string) => Option.getOrThrow(await run(Effect.flatMap(MailOutbox, (outbox) => outbox.find(merchantId, id))))

  const invoice = (reference: string) => ({
    subscriptionId: "sub_1",
    invoiceId: "inv_1",
    invoiceReference: reference,
    description: "Plan <Pro> & co",
    amount: "1234.50000000",
    currency: "USD",
    periodStart: "2026-01-31T00:00:00.000000Z",
    periodEnd: "2026-02-28T00:00:00.000000Z",
    payUrl: "https://pay.example/checkout/abc?x=1&y=2",
    dueAt: "2026-01-31T01:00:00.000000Z"
  })

  beforeAll(async () => {
    production = await startSmtpCatcher()
    sandbox = await startSmtpCatcher()
    runtime = ManagedRuntime.make(kitLayer(testKitConfig(
      store(),
      {
        mail: { smtpUrl: production.url, sandboxSmtpUrl: sandbox.url, from: "Shop billing <billing@shop.example>" },
        // A subscription's ipn_url on loopback (no webhook is sent: background jobs are off).
        webhooks: { ...defaultWebhookConfig, allowPrivateTargets: true }
      }
    )).pipe(Layer.provide(Logger.minimumLogLevel(LogLevel.Error))))
    merchantId = (await run(createMerchant({ name: "Shop & Sons", status: "approved" }))).id
  }, 30_000)
  afterAll(async () => {
    await runtime?.dispose()
    await production?.close()
    await sandbox?.close()
  })

  it("sends a committed mail: its subject, plain text and HTML parts, in French", async () => {
    const id = (await enqueue({ environment: "production", to: "ada@example.com", kind: "invoice_issued", facts: invoice("INV-FR-1"), locale: "fr-CA" }))!
    expect(await pass()).toBe(1)
    const [mail] = await production.waitFor(1)
    expect(mail!.to).toEqual(["ada@example.com"])
    expect(mail!.from).toBe("billing@shop.example")
    expect(mail!.subject).toBe("Votre facture INV-FR-1 de Shop & Sons")
    // Numbers as French writes them, the currency's two minor digits, the raw text in the text part.
    expect(mail!.text).toMatch(/Shop & Sons a émis une facture de 1\s234,50 USD pour Plan <Pro> & co/)
    expect(mail!.text).toContain("Payer la facture: https://pay.example/checkout/abc?x=1&y=2")
    expect(mail!.language).toBe("fr")
    // The HTML part escapes what the merchant wrote: it can never become markup.
    expect(mail!.html).toContain("Plan &lt;Pro&gt; &amp; co")
    expect(mail!.html).not.toContain("<Pro>")
    expect(mail!.html).toContain(`href="https://pay.example/checkout/abc?x=1&amp;y=2"`)
    const row = await stored(id)
    expect(row.status).toBe("sent")
    expect(row.attempts).toBe(1)
    expect(sandbox.mails).toHaveLength(0)
  })

  it("writes Arabic right to left and falls back to English for a language it does not speak", async () => {
    await enqueue({ environment: "production", to: "ar@example.com", kind: "trial_ending", locale: "ar", facts: {
      subscriptionId: "sub_2", description: null, amount: "9.99", currency: "USD", trialEnd: "2026-03-01T00:00:00Z"
    } })
    await enqueue({ environment: "production", to: "de@example.com", kind: "trial_ending", locale: "de", facts: {
      subscriptionId: "sub_3", description: "Gold", amount: "9.99", currency: "USD", trialEnd: "2026-03-01T00:00:00Z"
    } })
    const before = production.mails.length
    await pass()
    const mails = (await production.waitFor(before + 2)).slice(before)
    const arabic = mails.find((mail) => mail.to[0] === "ar@example.com")!
    expect(arabic.subject).toBe("فترتك التجريبية لدى Shop & Sons توشك على الانتهاء")
    expect(arabic.html).toContain(`dir="rtl"`)
    const english = mails.find((mail) => mail.to[0] === "de@example.com")!
    expect(english.subject).toBe("Your trial with Shop & Sons is ending")
    expect(english.text).toContain("Your trial of Gold with Shop & Sons ends on March 1, 2026. After that you will be billed 9.99 USD.")
  })

  it("retries a mail the server refuses for a while, then sends it once", async () => {
    production.failNext(2)
    const refusedBefore = production.refused()
    const before = production.mails.length
    const id = (await enqueue({ environment: "production", to: "retry@example.com", kind: "payment_receipt", facts: {
      subscriptionId: "sub_1", invoiceId: "inv_2", invoiceReference: "INV-R-1", description: "Plan", amount: "10", currency: "USD",
      paidAt: "2026-02-01T10:00:00Z", trxId: "SANDBOX_X"
    } }))!
    await pass()
    expect((await stored(id)).status).toBe("pending")
    await pass()
    const afterTwo = await stored(id)
    expect(afterTwo).toMatchObject({ status: "pending", attempts: 2 })
    expect(afterTwo.lastError).toContain("Try again later")
    await pass()
    await production.waitFor(before + 1)
    expect(production.refused() - refusedBefore).toBe(2)
    expect(production.mails.slice(before).map((mail) => mail.subject)).toEqual(["Receipt for INV-R-1 from Shop & Sons"])
    expect(await stored(id)).toMatchObject({ status: "sent", attempts: 3, lastError: null })
    // Nothing is due any more: another pass sends nothing.
    expect(await pass()).toBe(0)
  })

  it("gives up after the policy's attempts, and wipes a set-password token from the store", async () => {
    production.failNext(3)
    const id = (await enqueue({ environment: "production", to: "owner@example.com", kind: "dashboard_set_password", facts: {
      userEmail: "owner@example.com", token: "secret-token-abc", expiresAt: "2026-02-02T00:00:00Z", invited: true
    } }))!
    await pass()
    await pass()
    await pass()
    const row = await stored(id)
    expect(row).toMatchObject({ status: "failed", attempts: 3, nextAttemptAt: null })
    expect(row.kind === "dashboard_set_password" && row.facts.token).toBe("")
    expect(await pass()).toBe(0)
  })

  it("mails a dashboard user its set-password link, then a notice of each sign-in with where it came from", async () => {
    const before = production.mails.length
    const invited = await run(createMerchantUser(merchantId, { email: "Clerk@Example.com", role: "viewer" }))
    await pass()
    const [link] = (await production.waitFor(before + 1)).slice(before)
    expect(link!.to).toEqual(["clerk@example.com"])
    expect(link!.subject).toBe("Set your password for the Shop & Sons dashboard")
    expect(link!.text).toContain(`You have been invited to the Shop & Sons dashboard as clerk@example.com.`)
    expect(link!.text).toContain(`https://pay.example/dashboard/set-password/${invited.passwordToken}`)
    await run(setPasswordWithLink(invited.passwordToken, "a long enough password"))
    await run(signIn({ email: "clerk@example.com", password: "a long enough password", address: "203.0.113.7" }))
    await pass()
    const [notice] = (await production.waitFor(before + 2)).slice(before + 1)
    expect(notice!.subject).toBe("New sign-in to the Shop & Sons dashboard")
    expect(notice!.text).toMatch(/clerk@example\.com signed in to the Shop & Sons dashboard on .+ UTC from 203\.0\.113\.7\./)
    // A refused sign-in sends nothing.
    await expect(run(signIn({ email: "clerk@example.com", password: "not the password!", address: "203.0.113.7" }))).rejects.toThrow()
    expect(await pass()).toBe(0)
  })

  it("mails a test clock's change now, on the deployment's time, however far ahead the clock stands", async () => {
    const before = production.mails.length
    const aheadOfNow = fromIsoString("2031-06-01T00:00:00Z")!
    const id = (await run(Effect.flatMap(Transactor, (store) => store.withTransaction(enqueueMail({
      merchantId, environment: "production", to: "clock@example.com", kind: "trial_ending",
      facts: { subscriptionId: "sub_c", description: "Clocked", amount: "1", currency: "USD", trialEnd: "2031-06-03T00:00:00Z" }
    }))).pipe(atTestClockTime(aheadOfNow))))!
    expect((await stored(id)).createdAt < aheadOfNow).toBe(true)
    await pass()
    const [mail] = (await production.waitFor(before + 1)).slice(before)
    expect(mail!.text).toContain("ends on June 3, 2031")
  })

  it("sends nothing for a change that rolled back", async () => {
    const before = production.mails.length
    const failed = await run(Effect.either(Effect.flatMap(Transactor, (store) =>
      store.withTransaction(Effect.zipRight(
        enqueueMail({ merchantId, environment: "production", to: "rollback@example.com", kind: "trial_ending", facts: {
          subscriptionId: "sub_4", description: "Gone", amount: "1", currency: "USD", trialEnd: "2026-03-01T00:00:00Z"
        } }),
        Effect.fail("the change failed" as const)
      )))))
    expect(failed._tag).toBe("Left")
    expect(await pass()).toBe(0)
    const listed = await run(Effect.flatMap(MailOutbox, (outbox) => outbox.listForMerchant(merchantId, "production", 100)))
    expect(listed.map((mail) => mail.to)).not.toContain("rollback@example.com")
    expect(production.mails.length).toBe(before)
  })

  it("sends one mail once when two dispatchers pass at the same moment", async () => {
    const before = production.mails.length
    await enqueue({ environment: "production", to: "once@example.com", kind: "trial_ending", facts: {
      subscriptionId: "sub_5", description: "Once", amount: "1", currency: "USD", trialEnd: "2026-03-01T00:00:00Z"
    } })
    await Promise.all([pass(), pass(), pass()])
    await production.waitFor(before + 1)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(production.mails.slice(before).map((mail) => mail.to[0])).toEqual(["once@example.com"])
  })

  it("delivers sandbox mail to the sandbox server only, and keeps it for the dashboard", async () => {
    const productionBefore = production.mails.length
    const id = (await enqueue({ environment: "sandbox", to: "test@example.com", kind: "invoice_issued", facts: invoice("INV-SB-1") }))!
    await pass()
    const [mail] = await sandbox.waitFor(1)
    expect(mail!.subject).toBe("Your invoice INV-SB-1 from Shop & Sons")
    expect(mail!.text).toContain("Test mode: this mail is about a sandbox object; no real money moves.")
    expect(production.mails.length).toBe(productionBefore)
    expect((await stored(id)).status).toBe("sent")
    const kept = await run(Effect.flatMap(MailOutbox, (outbox) => outbox.listForMerchant(merchantId, "sandbox", 10)))
    expect(kept.map((row) => row.id)).toContain(id)
  })

  it("mails a subscription's customer in the locale it was created with: a French invoice and receipt; English without one", async () => {
    const shop = await run(sandboxShop("Boutique Élise", "card"))
    const handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp)
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await handler(signedRequest(shop, method, path, body === undefined ? "" : JSON.stringify(body)))
      return { status: response.status, json: (await response.json()) as Record<string, any> }
    }
    const subscribe = (reference: string, fields: Record<string, unknown>) =>
      call("POST", "/api/v1/subscriptions", {
        external_reference: reference, billing_cycle: "monthly", payment_amount: "12.50", currency_code: "USD",
        customer_email: `${reference}@example.com`, description: "Abonnement Or", success_redirect: "https://shop.example/ok",
        cancel_redirect: "https://shop.example/cancel", ipn_url: "http://127.0.0.1:9/ipn", ...fields
      })

    for (const locale of ["de", "FR", "fr-CA", 7]) {
      const refused = await subscribe(`bad-${String(locale)}`, { locale })
      expect(refused.status, String(locale)).toBe(422)
      expect(refused.json["errors"]["locale"], JSON.stringify(refused.json)).toEqual(["The selected locale is invalid; it must be one of: en, fr, ar."])
    }

    const before = sandbox.mails.length
    const french = await subscribe("fr-sub", { locale: "fr" })
    expect(french.status, JSON.stringify(french.json)).toBe(201)
    expect(french.json["data"]["locale"]).toBe("fr")
    const english = await subscribe("en-sub", {})
    expect(english.status).toBe(201)
    // Without a language the body keeps the contract's fields only.
    expect("locale" in english.json["data"]).toBe(false)
    await pass()
    const issued = (await sandbox.waitFor(before + 2)).slice(before)
    const number = french.json["data"]["latest_invoice"]["number"] as string
    const frenchIssued = issued.find((mail) => mail.to[0] === "fr-sub@example.com")!
    expect(frenchIssued.subject).toBe(`Votre facture ${number} de Boutique Élise`)
    expect(frenchIssued.language).toBe("fr")
    expect(frenchIssued.text).toMatch(/Boutique Élise a émis une facture de 12,50 USD pour Abonnement Or/)
    const englishIssued = issued.find((mail) => mail.to[0] === "en-sub@example.com")!
    expect(englishIssued.subject).toBe(`Your invoice ${english.json["data"]["latest_invoice"]["number"]} from Boutique Élise`)

    // Its receipt follows the subscription's language too.
    const paid = await call("POST", `/api/v1/sandbox/payments/${french.json["data"]["latest_invoice"]["trx_id"]}/simulate`, { outcome: "success" })
    expect(paid.status).toBe(200)
    await pass()
    const [receipt] = (await sandbox.waitFor(before + 3)).slice(before + 2)
    expect(receipt!.to).toEqual(["fr-sub@example.com"])
    expect(receipt!.subject).toBe(`Reçu pour ${number} de Boutique Élise`)
  })
})

describe(`mail outbox without SMTP settings (${name})`, () => {
  it("queues no production mail and keeps sandbox mail captured, unsent", async () => {
    const runtime = ManagedRuntime.make(kitLayer(testKitConfig(
      quietStore()
    )).pipe(Layer.provide(Logger.minimumLogLevel(LogLevel.Error))))
    try {
      const outcome = await runtime.runPromise(Effect.gen(function*() {
        const merchant = yield* createMerchant({ name: "Quiet", status: "approved" })
        const facts = { subscriptionId: "s", description: null, amount: "1", currency: "USD", trialEnd: "2026-03-01T00:00:00Z" }
        const production = yield* enqueueMail({ merchantId: merchant.id, environment: "production", to: "a@example.com", kind: "trial_ending", facts })
        const sandbox = yield* enqueueMail({ merchantId: merchant.id, environment: "sandbox", to: "a@example.com", kind: "trial_ending", facts })
        const due = yield* sendDueMail(10)
        const kept = yield* (yield* MailOutbox).listForMerchant(merchant.id, "sandbox", 10)
        return { production, sandbox, due, kept }
      }))
      expect(outcome.production).toBeNull()
      expect(outcome.due).toBe(0)
      expect(outcome.kept.map((mail) => [mail.id, mail.status])).toEqual([[outcome.sandbox, "captured"]])
    } finally {
      await runtime.dispose()
    }
  })
})
}
