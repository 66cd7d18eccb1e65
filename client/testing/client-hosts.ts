import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { startHost, type Host } from "../../testing/hosts/child-hosts.js"
import { type Demo, readDemo } from "../../testing/hosts/demo-fixtures.js"
import { createMerchantClient, type MerchantClientOptions } from "../merchant-client.js"

/** A built standalone host in a child process, with its seeded demo merchant (sandbox, USD). */
export interface ClientHost {
  readonly host: Host
  readonly demo: Demo
}

export const startClientHost = async (scratch: string, name: string, env: Readonly<Record<string, string>> = {}): Promise<ClientHost> => {
  const dataDir = join(scratch, name)
  mkdirSync(dataDir)
  const host = await startHost(dataDir, env)
  return { host, demo: readDemo(dataDir) }
}

/** The demo merchant's client for `target`; `overrides` change any option (fetch, retries...). */
export const demoClient = (target: ClientHost, overrides: Partial<MerchantClientOptions> = {}) =>
  createMerchantClient({
    baseUrl: target.host.url,
    merchantKey: target.demo.merchant_key,
    apiKey: target.demo.api_key,
    clientSecret: target.demo.client_secret,
    webhookSecret: target.demo.webhook_secret,
    environment: "sandbox",
    ...overrides
  })

/** The redirect and IPN addresses of a test payment; webhooks go to `ipnBase` (the recording receiver). */
export const checkoutAddresses = (ipnBase: string) => ({
  success_redirect: "https://shop.example/ok",
  cancel_redirect: "https://shop.example/cancel",
  ipn_url: `${ipnBase}/ipn`
})
