import { randomUUID } from "node:crypto"
import Database from "better-sqlite3"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { IssuedCredentials } from "../../../../hosts/embedding/index.js"
import { formTokenOf, type PlatformDashboard, startPlatformDashboard, textOf } from "../../../../testing/http/platform-dashboard.js"

// The Payouts pages over HTTP on the real kit: bank accounts added and deleted through their forms
// (the API's IBAN rule), payouts requested through the form (the wallet debited at once, pending,
// audited; a refusal said under its field, nothing moved), and a viewer offered no form.

const IBAN = "DE89 3704 0044 0532 0130 00"

describe("dashboard payout pages", () => {
  let dash: PlatformDashboard
  let shop: { readonly id: number; readonly credentials: IssuedCredentials }
  const owner = () => ({ merchant: shop.id })
  const viewer = () => ({ merchant: shop.id, role: "viewer" as const })

  const balance = async () => {
    const answer = await dash.api(shop.credentials, "GET", "/api/v1/balances")
    return (answer.json.data as ReadonlyArray<{ currency_code: string; balance: number }>).find((wallet) => wallet.currency_code === "USD")!.balance
  }
  const payouts = async () => (await dash.api(shop.credentials, "GET", "/api/v1/payouts")).json.data as ReadonlyArray<Record<string, unknown>>
  const destinations = async () => (await dash.api(shop.credentials, "GET", "/api/v1/payout-destinations")).json.data as ReadonlyArray<Record<string, unknown>>
  const lastAudit = () => {
    const database = new Database(dash.databaseFile)
    try {
      return database.prepare("SELECT operation, route, status, fields FROM audit_log ORDER BY rowid DESC LIMIT 1").get()
    } finally {
      database.close()
    }
  }
  const token = async (path: string) => formTokenOf((await dash.page(path, owner())).text)
  const addBankAccount = (fields: Readonly<Record<string, string>>) =>
    token("/dashboard/payout-destinations?environment=sandbox").then((csrf) =>
      dash.post("/dashboard/payout-destinations/add", { csrf_token: csrf, environment: "sandbox", ...fields }, owner()))
  /** The payout form as the page renders it: its key and the first bank account offered. */
  const payoutForm = async () => {
    const page = (await dash.page("/dashboard/payouts?environment=sandbox", owner())).text
    return {
      csrf_token: formTokenOf(page),
      environment: "sandbox",
      currency: "USD",
      idempotency_key: /name="idempotency_key" value="([^"]+)"/.exec(page)![1]!,
      destination_id: /<option value="(pd_[0-9a-f]+)"/.exec(page)![1]!
    }
  }

  beforeAll(async () => {
    dash = await startPlatformDashboard()
    shop = await dash.onboard("Payout Shop")
    const wallet = (await dash.payments.admin.wallets.list(shop.id)).data.find((each) => each.environment === "sandbox")!
    await dash.payments.admin.wallets.adjust(wallet.id, { amount: "100.00", reason: "opening balance for the test" })
  }, 60_000)
  afterAll(() => dash?.close())

  it("tells a merchant with no bank account to add one first, and offers no payout form yet", async () => {
    const page = await dash.page("/dashboard/payouts?environment=sandbox", owner())
    expect(page.status).toBe(200)
    const text = textOf(page.text)
    expect(text).toContain("No payouts yet.")
    expect(text).toContain("first add a bank account")
    expect(text).toContain("100.00 USD")
    expect(page.text).not.toContain('action="/dashboard/payouts/request"')
    expect(page.text).toContain('href="/dashboard/payout-destinations?environment=sandbox"')
  })

  it("refuses a bad IBAN under its field, in the API's words, and adds nothing", async () => {
    const refused = await addBankAccount({ account_holder: "Payout Shop GmbH", iban: "DE89 3704 0044 0532 0130 01", bic: "", currency: "USD" })
    expect(refused.status).toBe(422)
    expect(refused.text).toMatch(/<input id="bank-iban" name="iban" value="DE89 3704 0044 0532 0130 01"[^>]* aria-invalid="true" aria-describedby="bank-iban-problem">/)
    expect(refused.text).toContain('<p class="field-problem" id="bank-iban-problem" role="alert">The iban field&#39;s check digits do not match: it has a typing error.</p>')
    // The holder typed stays, to correct only what was wrong.
    expect(refused.text).toContain('value="Payout Shop GmbH"')
    expect(await destinations()).toEqual([])
    expect(lastAudit()).toMatchObject({ operation: "createPayoutDestination", status: 422 })
  })

  it("adds a bank account through the form, shown masked, audited", async () => {
    const added = await addBankAccount({ account_holder: "Payout Shop GmbH", iban: IBAN.toLowerCase(), bic: "cobadeffxxx", currency: "USD" })
    expect(added.status, added.text).toBe(303)
    expect(added.location).toBe("/dashboard/payout-destinations?environment=sandbox&done=added")
    const [destination] = await destinations()
    expect(destination).toMatchObject({ account_holder: "Payout Shop GmbH", iban_masked: "DE89 **** **** **** **30 00", bic: "COBADEFFXXX", currency: "USD" })
    expect(lastAudit()).toEqual({
      operation: "createPayoutDestination",
      route: "/dashboard/payout-destinations/add",
      status: 303,
      fields: JSON.stringify(["account_holder", "bic", "currency", "iban"])
    })
    const page = await dash.page("/dashboard/payout-destinations?environment=sandbox&done=added", owner())
    expect(textOf(page.text)).toContain("DE89 **** **** **** **30 00")
    expect(page.text).not.toContain("0532")
  })

  it("requests a payout through the form once: the wallet debited, the payout pending, audited", async () => {
    const form = { ...(await payoutForm()), amount: "40.00" }
    const sent = await dash.post("/dashboard/payouts/request", form, owner())
    expect(sent.status, sent.text).toBe(303)
    const [payout] = await payouts()
    expect(payout).toMatchObject({ status: "pending", amount: 40, currency: "USD", destination_id: form.destination_id })
    expect(sent.location).toBe(`/dashboard/payouts/${payout!["id"] as string}?environment=sandbox&done=requested`)
    expect(await balance()).toBe(60)
    expect(lastAudit()).toEqual({ operation: "createPayout", route: "/dashboard/payouts/request", status: 303, fields: JSON.stringify(["amount", "currency", "destination_id"]) })
    // The same form again (a double click, a second tab): the same payout, nothing more debited.
    const again = await dash.post("/dashboard/payouts/request", form, owner())
    expect(again.location).toBe(sent.location)
    expect(await payouts()).toHaveLength(1)
    expect(await balance()).toBe(60)
    // The same key with another amount is not that payout: refused, nothing moved.
    const other = await dash.post("/dashboard/payouts/request", { ...form, amount: "41.00" }, owner())
    expect(other.status).toBe(409)
    expect(textOf(other.text)).toContain("That payout form was already sent with another amount or bank account.")
    expect(await payouts()).toHaveLength(1)
    expect(await balance()).toBe(60)

    const detail = textOf((await dash.page(sent.location!, owner())).text)
    expect(detail).toContain("Payout requested")
    expect(detail).toContain("pending")
    expect(detail).toContain("40.00 USD")
    expect(detail).toContain("DE89 **** **** **** **30 00")
    expect(detail).toContain("waiting for the platform's approval")
    const list = (await dash.page("/dashboard/payouts?environment=sandbox", owner())).text
    expect(list).toContain(`<code class="trx">${payout!["id"] as string}</code>`)
    expect(list).toContain('<span class="status pending">pending</span>')
    expect(textOf(list)).toContain("60.00 USD")
  })

  it("shows a rejected payout's reason and the money back on its page", async () => {
    const form = { ...(await payoutForm()), amount: "5.00" }
    const sent = await dash.post("/dashboard/payouts/request", form, owner())
    const id = /\/dashboard\/payouts\/(po_[0-9a-f]+)/.exec(sent.location!)![1]!
    await dash.payments.admin.payouts.reject(id, "Account name does not match")
    const detail = textOf((await dash.page(`/dashboard/payouts/${id}?environment=sandbox`, owner())).text)
    expect(detail).toMatch(/rejected: Account name does not match\s*; 5\.00 USD came back to the balance/)
    expect(await balance()).toBe(60)
  })

  it("refuses a payout beyond the balance under the amount, in the API's words, and moves nothing", async () => {
    const before = await payouts()
    const refused = await dash.post("/dashboard/payouts/request", { ...(await payoutForm()), amount: "60.01" }, owner())
    expect(refused.status).toBe(422)
    expect(refused.text).toContain('<p class="field-problem" id="payout-amount-USD-problem" role="alert">Payout amount exceeds the available balance. The available balance is 60.00 USD.</p>')
    expect(refused.text).toMatch(/<input id="payout-amount-USD" name="amount"[^>]*value="60.01" aria-invalid="true"/)
    expect(await payouts()).toEqual(before)
    expect(await balance()).toBe(60)
    expect(lastAudit()).toMatchObject({ operation: "createPayout", status: 422 })
    const malformed = await dash.post("/dashboard/payouts/request", { ...(await payoutForm()), amount: "ten" }, owner())
    expect(malformed.status).toBe(422)
    expect(malformed.text).toContain('id="payout-amount-USD-problem"')
  })

  it("shows a viewer every page and no form", async () => {
    const [payout] = await payouts()
    for (const path of ["/dashboard/payouts", "/dashboard/payout-destinations", `/dashboard/payouts/${payout!["id"] as string}`]) {
      const page = await dash.page(`${path}?environment=sandbox`, viewer())
      expect(page.status, path).toBe(200)
      expect(page.text, path).not.toContain('method="post"')
    }
    expect(textOf((await dash.page("/dashboard/payout-destinations?environment=sandbox", viewer())).text)).toContain("DE89 **** **** **** **30 00")
  })

  it("keeps the environments apart: production shows none of the sandbox's payouts or bank accounts", async () => {
    const page = textOf((await dash.page("/dashboard/payouts?environment=production", owner())).text)
    expect(page).toContain("No payouts yet.")
    expect(page).not.toContain("DE89")
    expect((await dash.page(`/dashboard/payouts/${(await payouts())[0]!["id"] as string}?environment=production`, owner())).status).toBe(404)
  })

  it("deletes a bank account after a confirm step, audited; a payout to it still names it", async () => {
    const [destination] = await destinations()
    const id = destination!["id"] as string
    const csrf = await token("/dashboard/payout-destinations?environment=sandbox")
    const review = await dash.post(`/dashboard/payout-destinations/${id}/delete/review`, { csrf_token: csrf, environment: "sandbox" }, owner())
    expect(review.status).toBe(200)
    expect(textOf(review.text)).toContain("Delete the USD bank account DE89 **** **** **** **30 00 held by Payout Shop GmbH")
    expect(await destinations()).toHaveLength(1)
    const deleted = await dash.post(`/dashboard/payout-destinations/${id}/delete`, { csrf_token: csrf, environment: "sandbox" }, owner())
    expect(deleted.status).toBe(303)
    expect(await destinations()).toEqual([])
    expect(lastAudit()).toMatchObject({ operation: "deletePayoutDestination", route: "/dashboard/payout-destinations/{destination_id}/delete", status: 303 })
    const again = await dash.post(`/dashboard/payout-destinations/${id}/delete`, { csrf_token: csrf, environment: "sandbox" }, owner())
    expect(again.status).toBe(404)
    const list = textOf((await dash.page("/dashboard/payouts?environment=sandbox", owner())).text)
    expect(list).toContain(`a deleted bank account ${id}`)
    expect(list).toContain("No USD bank account yet.")
  })

  it("pages the payouts newest first, as the API does", async () => {
    const wallet = (await dash.payments.admin.wallets.list(shop.id)).data.find((each) => each.environment === "sandbox")!
    await dash.payments.admin.wallets.adjust(wallet.id, { amount: "100.00", reason: "more for paging" })
    expect((await addBankAccount({ account_holder: "Payout Shop GmbH", iban: IBAN, bic: "", currency: "USD" })).status).toBe(303)
    for (let index = 0; index < 20; index++) {
      expect((await dash.post("/dashboard/payouts/request", { ...(await payoutForm()), amount: "1.00", idempotency_key: randomUUID() }, owner())).status).toBe(303)
    }
    const first = (await dash.page("/dashboard/payouts?environment=sandbox", owner())).text
    const next = /<a class="button" href="([^"]+cursor=[^"]+)">Next page<\/a>/.exec(first)?.[1]
    expect(next).toBeDefined()
    const second = (await dash.page(next!.replace(/&amp;/g, "&"), owner())).text
    const ids = (html: string) => [...html.matchAll(/<code class="trx">(po_[0-9a-f]+)<\/code>/g)].map((match) => match[1])
    const all = (await dash.api(shop.credentials, "GET", "/api/v1/payouts?limit=100")).json.data.map((payout: { id: string }) => payout.id)
    expect([...ids(first), ...ids(second)]).toEqual(all)
  })
})
