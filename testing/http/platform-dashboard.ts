import { createServer, type IncomingMessage } from "node:http"
import { listen } from "./loopback.js"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { signRequest } from "../../core/signing/request-signature.js"
import { createMerchantPayments, type IssuedCredentials, type MerchantPayments, type MerchantPaymentsOptions } from "../../hosts/embedding/index.js"

/**
 * The real kit, embedded in a node:http server on a temporary SQLite file, its dashboard signed in by
 * the platform's `authenticate`: the request's `x-test-merchant` header names the merchant and
 * `x-test-role: viewer` makes a viewer (an owner otherwise), so a test needs no kit session.
 */

const MASTER_KEY = "22".repeat(32)

export interface Visitor {
  readonly merchant: number
  readonly role?: "owner" | "viewer"
}

export interface Answer {
  readonly status: number
  readonly location: string | null
  readonly text: string
}

export interface PlatformDashboard {
  readonly origin: string
  /** The kit's SQLite file, for a test that must break the store under it. */
  readonly databaseFile: string
  readonly payments: MerchantPayments
  /** GET a dashboard path (`/dashboard/...`) as the visitor, redirects not followed. */
  readonly page: (path: string, visitor: Visitor) => Promise<Answer>
  /** POST a urlencoded form to a dashboard path as the visitor, redirects not followed. */
  readonly post: (path: string, fields: Readonly<Record<string, string>>, visitor: Visitor) => Promise<Answer>
  /** A merchant's signed API call, as its server would make it. */
  readonly api: (credentials: IssuedCredentials, method: string, path: string, body?: unknown) => Promise<{ readonly status: number; readonly json: any }>
  /** An approved merchant with USD, a sandbox wallet and gateway, and sandbox keys. */
  readonly onboard: (name: string) => Promise<{ readonly id: number; readonly credentials: IssuedCredentials }>
  readonly close: () => Promise<void>
}

const header = (request: IncomingMessage, name: string) => {
  const value = request.headers[name]
  return typeof value === "string" ? value : undefined
}


const answerOf = async (response: Response): Promise<Answer> => ({ status: response.status, location: response.headers.get("location"), text: await response.text() })

export const startPlatformDashboard = async (options: Pick<MerchantPaymentsOptions, "webhooks" | "clock" | "mail"> = {}): Promise<PlatformDashboard> => {
  const scratch = mkdtempSync(join(tmpdir(), "mp-dashboard-"))
  let payments: MerchantPayments | undefined
  const server = createServer((request, response) => payments!.handler(request, response))
  const origin = await listen(server)
  payments = await createMerchantPayments({
    database: `sqlite:${join(scratch, "payments.db")}`,
    masterKey: MASTER_KEY,
    baseUrl: origin,
    logging: false,
    ...options,
    dashboard: {
      authenticate: (request) => {
        const merchant = header(request, "x-test-merchant")
        return merchant === undefined ? null : { merchantId: Number(merchant), userId: "u1", role: header(request, "x-test-role") === "viewer" ? "viewer" : "owner" }
      },
      signInUrl: "/login"
    }
  })
  const kit = payments
  const visitorHeaders = (visitor: Visitor) => ({ "x-test-merchant": String(visitor.merchant), "x-test-role": visitor.role ?? "owner" })
  return {
    origin,
    databaseFile: join(scratch, "payments.db"),
    payments: kit,
    page: async (path, visitor) => answerOf(await fetch(`${origin}${path}`, { headers: visitorHeaders(visitor), redirect: "manual" })),
    post: async (path, fields, visitor) =>
      answerOf(
        await fetch(`${origin}${path}`, {
          method: "POST",
          headers: { ...visitorHeaders(visitor), "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(fields).toString(),
          redirect: "manual"
        })
      ),
    api: (credentials, method, path, body) => signedApiCall(origin, credentials, method, path, body),
    onboard: async (name) => {
      const merchant = await kit.admin.merchants.create({ name, status: "approved" })
      await kit.admin.currencies.replace(merchant.id, ["USD"])
      await kit.admin.wallets.create(merchant.id, { currency_code: "USD", environment: "sandbox" })
      await kit.admin.gateways.create({ plugin: "sandbox", name: "Test card", currency_code: "USD", method: `card${merchant.id}` })
      return { id: merchant.id, credentials: await kit.admin.credentials.issue(merchant.id, "sandbox") }
    },
    close: async () => {
      await kit.close()
      await new Promise((resolve) => server.close(resolve))
      rmSync(scratch, { recursive: true, force: true })
    }
  }
}

/** The CSRF token a rendered page's forms carry (every form of one visitor has the same). */
/** A merchant's signed call, its signature over the full path it called (a base path included). */
export const signedApiCall = async (origin: string, credentials: IssuedCredentials, method: string, path: string, body?: unknown) => {
  const raw = body === undefined ? "" : JSON.stringify(body)
  const timestamp = String(Math.floor(Date.now() / 1000))
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: {
      "content-type": "application/json",
      "x-environment": credentials.environment,
      "x-merchant-key": credentials.merchant_key,
      "x-api-key": credentials.api_key,
      "x-timestamp": timestamp,
      "x-signature": signRequest(credentials.client_secret, { timestamp, method, pathWithQuery: path, rawBody: raw })
    },
    ...(raw === "" ? {} : { body: raw })
  })
  // Each caller reads the fields of the answer it asked for.
  return { status: response.status, json: await response.json() as any }
}

export const formTokenOf = (html: string): string => {
  const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1]
  if (token === undefined) throw new Error("the page has no form token")
  return token
}

/** The entity-encoded text of a page as a person reads it, tags dropped, for content assertions. */
export const textOf = (html: string): string =>
  html.replace(/<[^>]*>/g, " ").replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, "\"").replace(/&#39;/g, "'").replace(/\s+/g, " ")
