import { createServer, type Server } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pressButton } from "../../../../conformance/gateway/html-forms.js"
import type { IssuedCredentials } from "../../../../hosts/embedding/index.js"
import { type PlatformDashboard, startPlatformDashboard, textOf } from "../../../../testing/http/platform-dashboard.js"
import { type SmtpCatcher, startSmtpCatcher } from "../../../../testing/mail/smtp-catcher.js"

// The Sandbox mail pages on the real kit, its mail loop running: a sandbox subscription's invoice and
// receipt are kept and shown (text and HTML parts) and delivered to SANDBOX_SMTP_URL's server only;
// a dashboard invitation goes to SMTP_URL's server; nothing of another merchant is reachable.

const form = (fields: Readonly<Record<string, string>>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
  redirect: "manual" as const
})

describe("dashboard sandbox mail", () => {
  let dash: PlatformDashboard
  let receiver: Server
  let ipnUrl = ""
  let production: SmtpCatcher
  let sandbox: SmtpCatcher
  let shop: { readonly id: number; readonly credentials: IssuedCredentials }
  let rival: { readonly id: number; readonly credentials: IssuedCredentials }
  const owner = () => ({ merchant: shop.id })

  const subscribe = async (credentials: IssuedCredentials, reference: string, email: string) => {
    const made = await dash.api(credentials, "POST", "/api/v1/subscriptions", {
      payment_amount: "19.99",
      currency_code: "USD",
      external_reference: reference,
      billing_cycle: "monthly",
      customer_email: email,
      description: "Box <of> tea",
      success_redirect: "https://shop.example/ok",
      cancel_redirect: "https://shop.example/cancel",
      ipn_url: ipnUrl
    })
    expect(made.status, JSON.stringify(made.json)).toBe(201)
    return made.json.data as { readonly id: string; readonly latest_invoice: { readonly payment_url: string; readonly reference: string; readonly number: string } }
  }

  const pay = async (paymentUrl: string) => {
    const page = await (await fetch(paymentUrl)).text()
    const gatewayId = /name="gateway_id" value="(\d+)"/.exec(page)![1]!
    const gatewayPage = await (await fetch(`${paymentUrl}/pay`, form({ gateway_id: gatewayId }))).text()
    const button = pressButton(gatewayPage, "pay")!
    expect((await fetch(button.action!, form(button.fields))).status).toBe(303)
  }

  /** The ids the list page links to, newest first. */
  const listedIds = (page: string) => [...page.matchAll(/href="\/dashboard\/sandbox-mail\/([^"?/]+)\?environment=sandbox"/g)].map((match) => match[1]!)

  beforeAll(async () => {
    production = await startSmtpCatcher()
    sandbox = await startSmtpCatcher()
    receiver = createServer((request, response) => request.resume().on("end", () => response.writeHead(204).end()))
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
    ipnUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/ipn`
    // Private targets, so a loopback receiver can be a subscription's ipn_url.
    dash = await startPlatformDashboard({ webhooks: { allowPrivateTargets: true, pollIntervalMillis: 50, retryDelaysMillis: [] }, mail: { smtpUrl: production.url, sandboxSmtpUrl: sandbox.url, pollIntervalMillis: 50 } })
    shop = await dash.onboard("Tea & Co")
    rival = await dash.onboard("Rival")
  }, 60_000)
  afterAll(async () => {
    await dash?.close()
    await production?.close()
    await sandbox?.close()
    await new Promise((resolve) => receiver?.close(resolve))
  })

  it("keeps a sandbox subscription's invoice and receipt, shows both parts, and delivers them to the sandbox server only", async () => {
    const subscription = await subscribe(shop.credentials, "mail-1", "ada@example.com")
    // Mail names the invoice by its document number, as its PDF does.
    const reference = subscription.latest_invoice.number
    const [issued] = await sandbox.waitFor(1)
    expect(issued!.to).toEqual(["ada@example.com"])
    expect(issued!.subject).toBe(`Your invoice ${reference} from Tea & Co`)
    expect(issued!.text).toContain("Tea & Co has issued an invoice of 19.99 USD for Box <of> tea")
    expect(issued!.text).toContain(`Pay the invoice: ${subscription.latest_invoice.payment_url}`)

    const list = await dash.page("/dashboard/sandbox-mail?environment=sandbox", owner())
    expect(list.status).toBe(200)
    expect(textOf(list.text)).toContain(`Your invoice ${reference} from Tea & Co`)
    const [id] = listedIds(list.text)

    const view = await dash.page(`/dashboard/sandbox-mail/${id}?environment=sandbox`, owner())
    expect(view.status).toBe(200)
    expect(textOf(view.text)).toContain("ada@example.com")
    // The text part as it was sent, escaped into the page.
    expect(view.text).toContain("Box &lt;of&gt; tea")
    expect(view.text).toContain(`src="/dashboard/sandbox-mail/${id}/html?environment=sandbox"`)

    const part = await fetch(`${dash.origin}/dashboard/sandbox-mail/${id}/html?environment=sandbox`, { headers: { "x-test-merchant": String(shop.id) } })
    expect(part.status).toBe(200)
    expect(part.headers.get("content-security-policy")).toContain("sandbox")
    const markup = await part.text()
    expect(markup).toContain("Box &lt;of&gt; tea")
    expect(markup).toContain("Test mode")

    await pay(subscription.latest_invoice.payment_url)
    const received = await sandbox.waitFor(2)
    expect(received[1]!.subject).toBe(`Receipt for ${reference} from Tea & Co`)
    const after = await dash.page("/dashboard/sandbox-mail?environment=sandbox", owner())
    expect(textOf(after.text)).toContain(`Receipt for ${reference} from Tea & Co`)
    expect(production.mails).toHaveLength(0)
  }, 30_000)

  it("shows nothing of another merchant's mail, and nothing in production", async () => {
    await subscribe(rival.credentials, "mail-rival", "rival-customer@example.com")
    const rivalList = await dash.page("/dashboard/sandbox-mail?environment=sandbox", { merchant: rival.id })
    const [rivalMail] = listedIds(rivalList.text)
    expect(rivalMail).toBeDefined()
    expect(listedIds((await dash.page("/dashboard/sandbox-mail?environment=sandbox", owner())).text)).not.toContain(rivalMail)
    expect((await dash.page(`/dashboard/sandbox-mail/${rivalMail}?environment=sandbox`, owner())).status).toBe(404)
    expect((await dash.page(`/dashboard/sandbox-mail/${rivalMail}/html?environment=sandbox`, owner())).status).toBe(404)
    expect((await dash.page("/dashboard/sandbox-mail/no-such-mail?environment=sandbox", owner())).status).toBe(404)
  })

  it("lists the page in the navigation in the sandbox only", async () => {
    const sandboxHome = await dash.page("/dashboard?environment=sandbox", owner())
    expect(sandboxHome.text).toContain(`href="/dashboard/sandbox-mail?environment=sandbox"`)
    await dash.payments.admin.credentials.issue(shop.id, "production")
    const productionHome = await dash.page("/dashboard?environment=production", owner())
    expect(productionHome.status).toBe(200)
    expect(productionHome.text).not.toContain("/dashboard/sandbox-mail")
    const productionPage = await dash.page("/dashboard/sandbox-mail?environment=production", owner())
    expect(productionPage.status).toBe(200)
    expect(textOf(productionPage.text)).toContain("Production mail is sent to the customers' inboxes")
    expect(listedIds(productionPage.text)).toEqual([])
  })

  it("mails a dashboard invitation to SMTP_URL's server with the same link the admin API answered", async () => {
    const invited = await dash.payments.admin.users.create(shop.id, { email: "new.owner@example.com", role: "owner" })
    const [mail] = await production.waitFor(1)
    expect(mail!.to).toEqual(["new.owner@example.com"])
    expect(mail!.subject).toBe("Set your password for the Tea & Co dashboard")
    expect(mail!.text).toContain(`Set your password: ${invited.data.set_password_url}`)
    expect(mail!.html).toContain(`href="${invited.data.set_password_url}"`)
  })
})
