// An existing Express app (its own pages, its own session cookie, its own JSON API) that mounts the
// payments kit at /payments, registers a gateway plugin of its own and onboards its shop through
// payments.admin. It imports the kit by its package name, as a platform would.
import { randomBytes } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import express from "express"
import { createMerchantPayments } from "merchant-payments"
import acmePay from "../../examples/acme-pay-plugin/acme-pay.mjs"

const port = Number(process.env.PORT ?? 3000)
const origin = process.env.BASE_URL ?? `http://localhost:${port}`
const dataDir = process.env.DATA_DIR ?? "data/embedded"
mkdirSync(dataDir, { recursive: true })
// A real platform keeps MASTER_KEY in its secret store; the demo keeps one beside its database.
const keyFile = `${dataDir}/master.key`
if (process.env.MASTER_KEY === undefined && !existsSync(keyFile)) writeFileSync(keyFile, randomBytes(32).toString("hex"), { mode: 0o600 })
const masterKey = process.env.MASTER_KEY ?? readFileSync(keyFile, "utf8").trim()

const payments = await createMerchantPayments({
  database: process.env.DATABASE_URL ?? `sqlite:${dataDir}/payments.db`,
  masterKey,
  adminToken: process.env.ADMIN_TOKEN,
  baseUrl: origin,
  basePath: "/payments",
  plugins: [acmePay],
  webhooks: { allowPrivateTargets: true }
})

/** The platform's shop, onboarded once: approved, USD, a sandbox wallet, the sandbox and Acme Pay gateways. */
const onboard = async () => {
  const existing = (await payments.admin.merchants.list()).data.find((merchant) => merchant.name === "Embedded Shop")
  if (existing !== undefined) return { merchant: existing, credentials: undefined }
  const merchant = await payments.admin.merchants.create({ name: "Embedded Shop", status: "approved", fee_percent: "2.9", fee_fixed: "0.30" })
  await payments.admin.currencies.replace(merchant.id, ["USD"])
  await payments.admin.wallets.create(merchant.id, { currency_code: "USD", environment: "sandbox" })
  await payments.admin.gateways.create({ plugin: "sandbox", name: "Test card", currency_code: "USD", method: "card" })
  await payments.admin.gateways.create({
    plugin: "acme-pay", name: "Acme Pay", currency_code: "USD", method: "acme",
    config: { pay_page_url: "https://pay.acme.example/checkout", signing_secret: process.env.ACME_SECRET ?? "acme-demo-signing-secret" }
  })
  return { merchant, credentials: await payments.admin.credentials.issue(merchant.id, "sandbox") }
}
const shop = await onboard()

const app = express()
// The kit reads its own raw bodies (signatures cover the exact bytes): mount it before any body parser.
app.use("/payments", payments.handler)
app.use(express.json())
app.get("/", (request, response) => {
  const session = /(?:^|; )shop_session=([^;]+)/.exec(request.headers.cookie ?? "")?.[1] ?? randomBytes(12).toString("hex")
  response.cookie("shop_session", session, { httpOnly: true, sameSite: "lax" })
  response.type("text").send(`Embedded Shop (session ${session}). Payments live under ${payments.publicUrl}.`)
})
app.post("/orders", (request, response) => {
  response.status(201).json({ order: request.body, payments: payments.publicUrl })
})

const server = createServer(app).listen(port, () => {
  console.log(`embedded shop on ${origin}, payments at ${payments.publicUrl}`)
  if (shop.credentials !== undefined) console.log(`sandbox credentials (shown once): ${JSON.stringify(shop.credentials)}`)
})

const stop = () => server.close(() => payments.close().then(() => process.exit(0)))
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
