// The hand-written twin: what a platform team would write instead of embedding the kit. The same
// three routes on Express 5 + better-sqlite3 with the kit's pragmas (WAL, synchronous=FULL, foreign
// keys, busy timeout), the spec's request signature (section 5) and nothing else: no rate limit, no
// idempotency, minimal validation. Every route reads the caller's credentials (one SELECT); verify
// adds one SELECT; initiate adds one INSERT, its own durable commit. Responses are shaped like the
// kit's (about the same bytes on the wire), so `npm run bench` can print the kit as a ratio to it.
// Env: TWIN_DB (file), TWIN_MERCHANT_KEY, TWIN_API_KEY, TWIN_CLIENT_SECRET (its one sandbox
// merchant), PORT (0: any), HOST, BASE_URL (for site_url and payment_url).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import Database from "better-sqlite3"
import express from "express"

const required = (name) => {
  const value = process.env[name]
  if (value === undefined || value === "") throw new Error(`${name} is required`)
  return value
}
const TOLERANCE_SECONDS = 300
const host = process.env["HOST"] ?? "127.0.0.1"

const db = new Database(required("TWIN_DB"))
db.pragma("journal_mode = WAL")
db.pragma("synchronous = FULL")
db.pragma("foreign_keys = ON")
db.pragma("busy_timeout = 5000")
db.exec(`
  CREATE TABLE IF NOT EXISTS merchants (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, status TEXT NOT NULL, currencies TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS credentials (
    merchant_key TEXT PRIMARY KEY, merchant_id INTEGER NOT NULL REFERENCES merchants (id),
    environment TEXT NOT NULL, api_key TEXT NOT NULL, client_secret TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS payments (
    id INTEGER PRIMARY KEY, trx_id TEXT NOT NULL UNIQUE, merchant_id INTEGER NOT NULL REFERENCES merchants (id),
    environment TEXT NOT NULL, ref_trx TEXT NOT NULL, amount_minor INTEGER NOT NULL, fee_minor INTEGER NOT NULL,
    currency TEXT NOT NULL, status TEXT NOT NULL, description TEXT NOT NULL, customer_name TEXT NOT NULL,
    customer_email TEXT NOT NULL, ipn_url TEXT NOT NULL, success_redirect TEXT NOT NULL, cancel_redirect TEXT NOT NULL,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (merchant_id, environment, ref_trx));
  INSERT OR IGNORE INTO merchants (id, name, status, currencies) VALUES (1, 'Bench merchant', 'approved', 'USD');
`)
db.prepare("INSERT OR IGNORE INTO credentials VALUES (?, 1, 'sandbox', ?, ?)")
  .run(required("TWIN_MERCHANT_KEY"), required("TWIN_API_KEY"), required("TWIN_CLIENT_SECRET"))

const findCredentials = db.prepare(`SELECT c.merchant_id, c.api_key, c.client_secret, m.name, m.status, m.currencies
  FROM credentials c JOIN merchants m ON m.id = c.merchant_id WHERE c.merchant_key = ? AND c.environment = ?`)
const findPayment = db.prepare("SELECT * FROM payments WHERE trx_id = ? AND merchant_id = ? AND environment = ?")
const insertPayment = db.prepare(`INSERT INTO payments (trx_id, merchant_id, environment, ref_trx, amount_minor,
  fee_minor, currency, status, description, customer_name, customer_email, ipn_url, success_redirect, cancel_redirect,
  created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?)`)

const fail = (response, status, message, errorCode, errors = {}) =>
  response.status(status).json({ success: false, message, error_code: errorCode, errors, timestamp: isoNow() })
const isoNow = () => new Date().toISOString().replace("Z", "000Z")
const sameText = (a, b) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

/** Spec 5: credentials of the environment, timestamp within tolerance, HMAC of `<ts>.<METHOD>.<path?query>.<raw body>`. */
const authenticate = (request, response, next) => {
  const environment = request.get("x-environment")
  const [merchantKey, apiKey, timestamp, signature] =
    ["x-merchant-key", "x-api-key", "x-timestamp", "x-signature"].map((name) => request.get(name) ?? "")
  const found = environment === "sandbox" || environment === "production" ? findCredentials.get(merchantKey, environment) : undefined
  if (found === undefined || !sameText(found.api_key, apiKey)) return fail(response, 401, "Invalid API credentials.", "INVALID_CREDENTIALS")
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) {
    return fail(response, 401, "The request timestamp is outside the allowed window.", "INVALID_CREDENTIALS")
  }
  const expected = createHmac("sha256", found.client_secret)
    .update(`${timestamp}.${request.method}.${request.originalUrl}.`).update(request.rawBody ?? Buffer.alloc(0)).digest()
  const given = Buffer.from(signature.replace(/^sha256=/, ""), "hex")
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return fail(response, 401, "The request signature is invalid.", "INVALID_CREDENTIALS")
  }
  if (found.status !== "approved" && (environment === "production" || found.status !== "pending")) {
    return fail(response, 403, "Merchant Pending Approval", "MERCHANT_NOT_APPROVED")
  }
  request.merchant = found
  next()
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
const randomId = () => Array.from(randomBytes(26), (byte) => CROCKFORD[byte & 31]).join("")
const checkoutSecret = randomBytes(32)
/** A signed, time-limited checkout link token, as the kit's payment_url carries. */
const checkoutToken = (trxId) => {
  const payload = Buffer.from(`${trxId}.${Math.floor(Date.now() / 1000) + 3600}`).toString("base64url")
  return `${payload}.${createHmac("sha256", checkoutSecret).update(payload).digest("base64url")}`
}
const isUrl = (value) => typeof value === "string" && /^https?:\/\/[^\s/]+/.test(value)
const isText = (value, max) => typeof value === "string" && value.length >= 1 && value.length <= max
const optionalText = (value) => (typeof value === "string" ? value : "")

const app = express()
app.disable("x-powered-by")
// Read in express.json's verify hook: the signature covers the exact bytes sent.
app.use("/api/v1", express.json({ verify: (request, _response, raw) => (request.rawBody = raw) }), authenticate)

app.get("/healthz", (_request, response) => response.json({ status: "ok" }))

const port = Number(process.env["PORT"] ?? "0")
const siteInfo = (baseUrl) => ({
  site_name: "Merchant Payments", site_logo: "https://merchant-payments.invalid/logo.svg", site_url: baseUrl,
  gateway_name: "Merchant Payments Gateway", gateway_description: "Hosted checkout, refunds and signed webhooks.",
  features: { ssl_secured: "SSL Secured", instant_processing: "Instant Processing", global_support: "Global Support", mobile_ready: "Mobile Ready" },
  environments: { production: "Production", sandbox: "Sandbox" }, api_version: "1.0", status: "active"
})
let baseUrl = process.env["BASE_URL"] || ""
let siteInfoBody = siteInfo(baseUrl)

app.get("/api/v1/site-info", (_request, response) => response.json(siteInfoBody))

app.get("/api/v1/verify-payment/:trxId", (request, response) => {
  const payment = findPayment.get(request.params.trxId, request.merchant.merchant_id, request.get("x-environment"))
  if (payment === undefined) return fail(response, 404, "Transaction not found.", "NOT_FOUND")
  const net = payment.status === "success" ? payment.amount_minor - payment.fee_minor : 0
  response.json({
    status: payment.status, trx_id: payment.trx_id, amount: payment.amount_minor / 100, fee: payment.fee_minor / 100,
    currency: payment.currency, net_amount: net / 100, customer: { name: payment.customer_name, email: payment.customer_email },
    description: payment.description, created_at: payment.created_at, updated_at: payment.updated_at,
    refunded_amount: 0, fully_refunded: false
  })
})

app.post("/api/v1/initiate-payment", (request, response) => {
  const body = typeof request.body === "object" && request.body !== null ? request.body : {}
  /** @type {Record<string, string[]>} */
  const errors = {}
  if (typeof body.payment_amount !== "number" || !(body.payment_amount >= 1)) errors.payment_amount = ["The payment amount must be at least 1.00."]
  if (typeof body.currency_code !== "string" || !/^[A-Z]{3}$/.test(body.currency_code)) errors.currency_code = ["The currency code must be 3 capital letters."]
  if (!isText(body.ref_trx, 60)) errors.ref_trx = ["The ref trx field is required (at most 60 characters)."]
  for (const field of ["success_redirect", "cancel_redirect", "ipn_url"]) if (!isUrl(body[field])) errors[field] = [`The ${field} must be a URL.`]
  if (Object.keys(errors).length > 0) return fail(response, 422, "The given data was invalid.", "VALIDATION_FAILED", errors)
  const merchant = request.merchant
  if (!merchant.currencies.split(",").includes(body.currency_code)) {
    return fail(response, 422, "Currency is not enabled for this merchant.", "INVALID_CURRENCY")
  }
  const environment = request.get("x-environment")
  const trxId = `${environment === "sandbox" ? "SANDBOX_" : ""}${randomId()}`
  const now = isoNow()
  // Cents through a float: minimal, as a quick hand-written service would do (the kit's amounts are exact).
  const amountMinor = Math.round(body.payment_amount * 100)
  const [description, customerName, customerEmail] = [body.description, body.customer_name, body.customer_email].map(optionalText)
  try {
    insertPayment.run(trxId, merchant.merchant_id, environment, body.ref_trx, amountMinor, body.currency_code, description,
      customerName, customerEmail, body.ipn_url, body.success_redirect, body.cancel_redirect, now, now)
  } catch (error) {
    if (error?.code === "SQLITE_CONSTRAINT_UNIQUE") return fail(response, 409, "Transaction reference already exists.", "DUPLICATE_REFERENCE")
    throw error
  }
  response.json({
    payment_url: `${baseUrl}/checkout/${checkoutToken(trxId)}`,
    info: {
      trx_id: trxId, ref_trx: body.ref_trx, description, ipn_url: body.ipn_url, cancel_redirect: body.cancel_redirect,
      success_redirect: body.success_redirect, customer_name: customerName, customer_email: customerEmail,
      merchant_id: merchant.merchant_id, merchant_name: merchant.name, amount: amountMinor / 100,
      currency_code: body.currency_code, environment, is_sandbox: environment === "sandbox", allow_payment_methods: [],
      merchant_payment_methods_restricted: false, merchant_payment_method_ids: [1], merchant_payment_method_codes: ["sandbox-usd"]
    }
  })
})

// Malformed JSON (from express.json) and anything thrown: the error body, never Express's HTML page.
app.use((error, _request, response, _next) => {
  const status = Number.isInteger(error?.status) && error.status >= 400 && error.status < 500 ? error.status : 500
  fail(response, status, status === 500 ? "Server error." : "The request body is not valid JSON.", status === 500 ? "SERVER_ERROR" : "VALIDATION_FAILED")
})

const server = app.listen(port, host, () => {
  const address = server.address()
  const bound = typeof address === "object" && address !== null ? address.port : port
  if (baseUrl === "") {
    baseUrl = `http://${host}:${bound}`
    siteInfoBody = siteInfo(baseUrl)
  }
  console.log(`TWIN_LISTENING ${bound}`)
})
// SIGTERM from the bench: stop accepting, drop keep-alive connections, close the database.
process.on("SIGTERM", () => {
  server.close(() => {
    db.close()
    process.exit(0)
  })
  server.closeAllConnections()
})
