import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { verifyWebhook } from "../../../../core/webhooks/verify-webhook.js"
import type { IssuedCredentials } from "../../../../hosts/embedding/index.js"
import { formTokenOf, type PlatformDashboard, startPlatformDashboard, textOf } from "../../../../testing/http/platform-dashboard.js"

// The webhook pages over HTTP on the real kit, with a real loopback receiver: the merchant's events
// with filters and paging, one event's attempts, redeliver, and the signed test event.

interface Received {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

const waitFor = async <A>(what: string, probe: () => Promise<A | undefined>): Promise<A> => {
  for (let tries = 0; tries < 100; tries++) {
    const found = await probe()
    if (found !== undefined) return found
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`timed out waiting for ${what}`)
}

const PAUSE_AFTER_SECONDS = 60

describe("dashboard webhook pages", () => {
  let dash: PlatformDashboard
  let receiver: Server
  let hook = ""
  const received: Array<Received> = []
  let shop: { readonly id: number; readonly credentials: IssuedCredentials }
  let rival: { readonly id: number; readonly credentials: IssuedCredentials }
  const owner = () => ({ merchant: shop.id })
  const viewer = () => ({ merchant: shop.id, role: "viewer" as const })

  /** Sends a test event from the dashboard's form as the merchant's owner; answers the event's id. */
  const sendTest = async (merchant: number, url: string) => {
    const token = formTokenOf((await dash.page("/dashboard/webhooks?environment=sandbox", { merchant })).text)
    const sent = await dash.post("/dashboard/webhooks/test", { csrf_token: token, environment: "sandbox", url }, { merchant })
    expect(sent.status, sent.text).toBe(303)
    return /^\/dashboard\/webhooks\/([^?]+)\?environment=sandbox&done=test$/.exec(sent.location ?? "")![1]!
  }

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk)).on("end", () => {
        received.push({ path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") })
        response.writeHead(request.url === "/broken" ? 500 : 204).end()
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
    hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`
    // A manual clock, so a failing target can be made to fail long enough to be paused.
    dash = await startPlatformDashboard({
      clock: "manual",
      webhooks: { allowPrivateTargets: true, pollIntervalMillis: 50, retryDelaysMillis: [], pauseAfterSeconds: PAUSE_AFTER_SECONDS }
    })
    shop = await dash.onboard("Shop")
    rival = await dash.onboard("Rival")
  }, 60_000)
  afterAll(async () => {
    await dash?.close()
    await new Promise((resolve) => receiver?.close(resolve))
  })

  it("sends a signed test event to the URL, audited, and shows its attempt on its own page", async () => {
    const id = await sendTest(shop.id, `${hook}/test-hook`)
    const delivery = await waitFor("the test event", async () => received.find((entry) => entry.headers["x-event-id"] === id))
    expect(delivery.path).toBe("/test-hook")
    expect(JSON.parse(delivery.body)).toMatchObject({ event: "test", status: "test", data: { merchant_name: "Shop", environment: "sandbox", is_sandbox: true } })
    // Signed as a payment event is: X-Signature with the environment's webhook secret.
    const verified = verifyWebhook({
      rawBody: delivery.body,
      signature: delivery.headers["x-signature"] as string,
      environmentHeader: delivery.headers["x-environment"] as string,
      webhookSecret: shop.credentials.webhook_secret,
      clientSecret: "not the signing secret",
      expectedEnvironment: "sandbox"
    })
    expect(verified.valid).toBe(true)

    const page = await waitFor("the attempt on the page", async () => {
      const answer = await dash.page(`/dashboard/webhooks/${id}?environment=sandbox`, owner())
      return answer.text.includes("HTTP 204") ? answer : undefined
    })
    expect(page.status).toBe(200)
    const text = textOf(page.text)
    expect(text).toContain("Webhook test")
    expect(text).toContain(`${hook}/test-hook`)
    expect(text).toMatch(/Status delivered/)
    expect(page.text).toContain(`name="return_to" value="/webhooks/${id}"`)

    const audit = await dash.payments.admin.audit.list({ merchant_id: shop.id })
    expect(audit.data.find((entry) => entry.operation === "sendTestEvent")).toMatchObject({
      actor_type: "merchant_user",
      actor_id: "platform:u1",
      status: 303,
      route: "/dashboard/webhooks/test",
      fields: ["url"]
    })
  })

  it("lists the merchant's events with status, attempts and last error, and a redeliver button for owners", async () => {
    const failing = await sendTest(shop.id, `${hook}/broken`)
    await waitFor("the failed attempt", async () => {
      const answer = await dash.page(`/dashboard/webhooks/${failing}?environment=sandbox`, owner())
      return textOf(answer.text).includes("Status failed") ? answer : undefined
    })
    const page = await dash.page("/dashboard/webhooks?environment=sandbox", owner())
    expect(page.status).toBe(200)
    expect(page.text).toContain(`href="/dashboard/webhooks/${failing}?environment=sandbox"`)
    const row = page.text.split("<tr>").find((part) => part.includes(failing))!
    expect(textOf(row)).toMatch(/failed 1 HTTP 500/)
    expect(row).toContain(`action="/dashboard/events/${failing}/redeliver"`)
    expect(page.text).toContain(`action="/dashboard/webhooks/test"`)

    const redelivered = await dash.post(`/dashboard/events/${failing}/redeliver`, { csrf_token: formTokenOf(page.text), environment: "sandbox", return_to: `/webhooks/${failing}` }, owner())
    expect(redelivered.status).toBe(303)
    expect(redelivered.location).toBe(`/dashboard/webhooks/${failing}?environment=sandbox&done=redelivered`)
    await waitFor("the second attempt", async () => {
      const answer = await dash.page(`/dashboard/webhooks/${failing}?environment=sandbox`, owner())
      return answer.text.includes(`<td data-label="Attempt">2</td>`) ? answer : undefined
    })
  })

  it("shows a viewer the events without a single form to post", async () => {
    await sendTest(shop.id, `${hook}/seen`)
    const page = await dash.page("/dashboard/webhooks?environment=sandbox", viewer())
    expect(page.status).toBe(200)
    expect(page.text).toContain("/seen")
    expect(page.text).not.toMatch(/<form[^>]*method="post"/)
    const id = /href="\/dashboard\/webhooks\/([^?"]+)\?environment=sandbox"/.exec(page.text)![1]!
    const detail = await dash.page(`/dashboard/webhooks/${id}?environment=sandbox`, viewer())
    expect(detail.status).toBe(200)
    expect(detail.text).not.toMatch(/<form[^>]*method="post"/)
  })

  it("refuses a viewer's post and a post without the form token with 403, queuing nothing", async () => {
    const token = formTokenOf((await dash.page("/dashboard/webhooks?environment=sandbox", owner())).text)
    const before = (await dash.page("/dashboard/webhooks?environment=sandbox&type=test", owner())).text.split("<tr>").length
    expect((await dash.post("/dashboard/webhooks/test", { csrf_token: token, environment: "sandbox", url: `${hook}/x` }, viewer())).status).toBe(403)
    expect((await dash.post("/dashboard/webhooks/test", { environment: "sandbox", url: `${hook}/x` }, owner())).status).toBe(403)
    expect((await dash.post("/dashboard/webhooks/resume", { environment: "sandbox" }, owner())).status).toBe(403)
    expect((await dash.page("/dashboard/webhooks?environment=sandbox&type=test", owner())).text.split("<tr>").length).toBe(before)
  })

  it("filters by type and object id and refuses a date that is not one", async () => {
    const rivalEvent = await sendTest(rival.id, `${hook}/rival`)
    const mine = await sendTest(shop.id, `${hook}/filtered`)
    const byObject = await dash.page(`/dashboard/webhooks?environment=sandbox&object_id=${mine}`, owner())
    expect(byObject.status).toBe(200)
    expect(byObject.text.split("<tbody>")[1]!.split("<tr>").length - 1).toBe(1)
    expect(byObject.text).toContain(`value="${mine}"`)
    const byType = await dash.page("/dashboard/webhooks?environment=sandbox&type=payment.completed", owner())
    expect(textOf(byType.text)).toContain("No events match.")
    const today = new Date().toISOString().slice(0, 10)
    const inRange = await dash.page(`/dashboard/webhooks?environment=sandbox&from=${today}&to=${today}&type=test`, owner())
    expect(inRange.text).toContain(mine)
    expect(inRange.text).not.toContain(rivalEvent)
    const refused = await dash.page("/dashboard/webhooks?environment=sandbox&from=yesterday", owner())
    expect(refused.status).toBe(400)
    expect(textOf(refused.text)).toContain("From must be a date such as 2030-01-31.")
  })

  it("pages the events with a cursor, 20 a page", async () => {
    const many = await dash.onboard("Many")
    const ids: Array<string> = []
    for (let n = 0; n < 21; n++) ids.push(await sendTest(many.id, `${hook}/many`))
    const listed = (html: string) => [...html.matchAll(/<a href="\/dashboard\/webhooks\/([^?"]+)\?environment=sandbox">test<\/a>/g)].map((match) => match[1]!)
    const first = await dash.page("/dashboard/webhooks?environment=sandbox", { merchant: many.id })
    expect(listed(first.text)).toHaveLength(20)
    const next = /<a class="button" href="([^"]+)">Next page<\/a>/.exec(first.text)![1]!.replace(/&amp;/g, "&")
    const second = await dash.page(next, { merchant: many.id })
    expect(listed(second.text)).toHaveLength(1)
    // Every event once: the cursor starts the next page right after the last one shown.
    expect([...listed(first.text), ...listed(second.text)].sort()).toEqual([...ids].sort())
    expect(second.text).toContain(">First page<")
    expect(second.text).not.toContain(">Next page<")
  })

  it("answers another merchant's event, and an event of another environment, with a 404 page", async () => {
    const theirs = await sendTest(rival.id, `${hook}/theirs`)
    const page = await dash.page(`/dashboard/webhooks/${theirs}?environment=sandbox`, owner())
    expect(page.status).toBe(404)
    expect(page.text).not.toContain("/theirs")
    expect((await dash.page(`/dashboard/webhooks/${theirs}?environment=production`, { merchant: rival.id })).status).toBe(404)
    const token = formTokenOf((await dash.page("/dashboard/webhooks?environment=sandbox", owner())).text)
    expect((await dash.post(`/dashboard/events/${theirs}/redeliver`, { csrf_token: token, environment: "sandbox" }, owner())).status).toBe(404)
  })

  // Last: it moves business time on.
  it("shows a paused endpoint, and an owner's Resume sends what waited and what failed", async () => {
    // A receiver of its own: a target is an origin, and this one must fail alone.
    let down = true
    const flaky = createServer((request, response) => request.resume().on("end", () => response.writeHead(down ? 503 : 204).end()))
    await new Promise<void>((resolve) => flaky.listen(0, "127.0.0.1", resolve))
    const origin = `http://127.0.0.1:${(flaky.address() as { port: number }).port}`
    try {
      const statusOf = async (id: string) =>
        /<th scope="row">Status<\/th><td><span class="status (\w+)"/.exec((await dash.page(`/dashboard/webhooks/${id}?environment=sandbox`, owner())).text)?.[1]
      const failedOnce = async (id: string) => waitFor(`${id} to fail`, async () => ((await statusOf(id)) === "failed" ? true : undefined))
      const first = await sendTest(shop.id, `${origin}/hook`)
      await failedOnce(first)
      await dash.payments.admin.clock.advance(PAUSE_AFTER_SECONDS * 2)
      const second = await sendTest(shop.id, `${origin}/hook`)
      await failedOnce(second)
      const held = await sendTest(shop.id, `${origin}/hook`)

      const page = await waitFor("the paused endpoint", async () => {
        const answer = await dash.page("/dashboard/webhooks?environment=sandbox", owner())
        return answer.text.includes("Paused endpoints") ? answer : undefined
      })
      expect(textOf(page.text)).toContain(origin)
      expect(page.text).toContain(`action="/dashboard/webhooks/resume"`)
      const seen = await dash.page("/dashboard/webhooks?environment=sandbox", viewer())
      expect(textOf(seen.text)).toContain("An owner can resume them.")
      expect(seen.text).not.toContain(`action="/dashboard/webhooks/resume"`)
      expect(await statusOf(held)).toBe("pending")

      down = false
      const resumed = await dash.post("/dashboard/webhooks/resume", { csrf_token: formTokenOf(page.text), environment: "sandbox" }, owner())
      expect(resumed.status).toBe(303)
      expect(resumed.location).toBe("/dashboard/webhooks?environment=sandbox&done=resumed")
      for (const id of [first, second, held]) await waitFor(`${id} delivered`, async () => ((await statusOf(id)) === "delivered" ? true : undefined))
      const after = await dash.page(resumed.location!, owner())
      expect(textOf(after.text)).toContain("Delivery resumed")
      expect(after.text).not.toContain("Paused endpoints")
      const audit = await dash.payments.admin.audit.list({ merchant_id: shop.id })
      expect(audit.data.find((entry) => entry.operation === "recoverEvents")).toMatchObject({ status: 303, route: "/dashboard/webhooks/resume" })
    } finally {
      await new Promise((resolve) => flaky.close(resolve))
    }
  })
})

describe("dashboard test event under the default target rules", () => {
  let dash: PlatformDashboard
  let shop: { readonly id: number }
  beforeAll(async () => {
    // Private targets refused (the default): the rule an ipn_url meets in production.
    dash = await startPlatformDashboard({ webhooks: { pollIntervalMillis: 60_000 } })
    shop = await dash.onboard("Shop")
  }, 60_000)
  afterAll(async () => {
    await dash?.close()
  })

  it("refuses a URL an ipn_url could not be with a 422 page giving the reason, queuing nothing, audited", async () => {
    const visitor = { merchant: shop.id }
    const token = formTokenOf((await dash.page("/dashboard/webhooks?environment=sandbox", visitor)).text)
    for (const [url, reason] of [
      ["http://169.254.169.254/latest/meta-data", "refused: metadata"],
      ["http://localhost:8080/hook", "refused: loopback"],
      ["ftp://shop.example/hook", "refused: unsupported scheme ftp:"],
      ["not a url", "The url field must be a valid URL."]
    ] as const) {
      const refused = await dash.post("/dashboard/webhooks/test", { csrf_token: token, environment: "sandbox", url }, visitor)
      expect(refused.status, url).toBe(422)
      expect(textOf(refused.text), url).toContain(reason)
      // The form comes back with what was typed, to be corrected.
      expect(refused.text, url).toContain(`value="${url.replace(/&/g, "&amp;")}"`)
    }
    expect(textOf((await dash.page("/dashboard/webhooks?environment=sandbox", visitor)).text)).toContain("No webhook events yet.")
    const audit = await dash.payments.admin.audit.list({ merchant_id: shop.id })
    expect(audit.data.filter((entry) => entry.operation === "sendTestEvent").map((entry) => entry.status)).toEqual([422, 422, 422, 422])
  })
})
