import { randomBytes } from "node:crypto"
import { expect } from "vitest"
import { adminRequest, apiRequest, type ApiRequest, type HttpResult, type Target } from "./signing.js"

/** Everything here goes through the admin API over HTTP, like an operator would. */

export type Environment = "sandbox" | "production"
export type MerchantStatus = "pending" | "approved" | "rejected" | "disabled" | "suspended"

export interface MerchantBody {
  readonly id: number
  readonly name: string
  readonly status: MerchantStatus
  readonly fee_percent: number
  readonly fee_fixed: number
}

export interface IssuedCredentials {
  readonly environment: Environment
  readonly merchant_key: string
  readonly api_key: string
  readonly client_secret: string
  readonly webhook_secret: string
  /** When the set this one replaced stops working; null when it stopped at once. */
  readonly previous_valid_until: string | null
}

/** A name no other run or case uses, so cases sharing a host never collide. */
export const uniqueName = (label: string): string => `conformance ${label} ${randomBytes(4).toString("hex")}`

const expectStatus = (response: HttpResult, status: number, what: string): void => {
  if (response.status !== status) throw new Error(`${what}: expected HTTP ${status}, got ${response.status}: ${response.text}`)
}

export const createMerchant = async (
  target: Target,
  fields: { readonly status?: MerchantStatus; readonly name?: string } & Record<string, unknown> = {}
): Promise<MerchantBody> => {
  const response = await adminRequest(target, "POST", "/merchants", { name: uniqueName("merchant"), ...fields })
  expectStatus(response, 201, "create merchant")
  return response.json() as MerchantBody
}

export const setMerchantStatus = async (target: Target, id: number, status: MerchantStatus): Promise<void> => {
  const response = await adminRequest(target, "PATCH", `/merchants/${id}`, { status })
  expectStatus(response, 200, `set merchant ${id} to ${status}`)
  expect(response.json().status).toBe(status)
}

export const issueCredentials = async (target: Target, merchantId: number, environment: Environment): Promise<IssuedCredentials> => {
  const response = await adminRequest(target, "POST", `/merchants/${merchantId}/credentials`, { environment })
  expectStatus(response, 201, `issue ${environment} credentials`)
  return response.json() as IssuedCredentials
}

/** A merchant in `status` with credentials for `environment`, and a signed caller bound to them. */
export interface MerchantCaller {
  readonly merchant: MerchantBody
  readonly credentials: IssuedCredentials
  /** GET /api/v1/site-info (or `path`) signed correctly with these credentials; any field can be overridden. */
  readonly call: (overrides?: Partial<ApiRequest>) => Promise<HttpResult>
}

export const callerFor = (target: Target, merchant: MerchantBody, credentials: IssuedCredentials): MerchantCaller => ({
  merchant,
  credentials,
  call: (overrides = {}) =>
    apiRequest(target, {
      path: "/api/v1/site-info",
      environment: credentials.environment,
      merchantKey: credentials.merchant_key,
      apiKey: credentials.api_key,
      secret: credentials.client_secret,
      ...overrides
    })
})

export const merchantCaller = async (
  target: Target,
  options: { readonly status?: MerchantStatus; readonly environment?: Environment } = {}
): Promise<MerchantCaller> => {
  const merchant = await createMerchant(target, { status: options.status ?? "approved" })
  const credentials = await issueCredentials(target, merchant.id, options.environment ?? "sandbox")
  return callerFor(target, merchant, credentials)
}

export interface Settings {
  readonly site_name: string
  readonly site_logo: string
  readonly site_url: string
  readonly gateway_name: string
  readonly gateway_description: string
  readonly signature_required: boolean
  readonly signature_tolerance_seconds: number
  readonly rate_limit_per_minute: number
}

export const readSettings = async (target: Target): Promise<Settings> => {
  const response = await adminRequest(target, "GET", "/settings")
  expectStatus(response, 200, "read settings")
  return response.json() as Settings
}

/**
 * Runs `use` with some settings changed and always puts the previous values back, because every
 * case on the host shares them.
 */
export const withSettings = async <A>(target: Target, patch: Partial<Settings>, use: () => Promise<A>): Promise<A> => {
  const before = await readSettings(target)
  const restore = Object.fromEntries(Object.keys(patch).map((key) => [key, before[key as keyof Settings]]))
  try {
    const response = await adminRequest(target, "PATCH", "/settings", patch)
    expectStatus(response, 200, `change settings ${JSON.stringify(patch)}`)
    return await use()
  } finally {
    const response = await adminRequest(target, "PATCH", "/settings", restore)
    expectStatus(response, 200, `restore settings ${JSON.stringify(restore)}`)
  }
}

export const sleep = (millis: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, millis))

/**
 * Waits for the start of a fresh wall-clock second, so a request sent now is judged within the
 * same second it was stamped with: boundary cases (skew of exactly the tolerance) stay exact.
 * Assumes the host's clock agrees with this machine's to well under a second.
 */
export const startOfSecond = async (): Promise<number> => {
  await sleep(1000 - (Date.now() % 1000) + 15)
  return Math.floor(Date.now() / 1000)
}
