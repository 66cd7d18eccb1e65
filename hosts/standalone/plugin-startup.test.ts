import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { IncompatibleGatewayPlugin } from "../../core/gateways/gateway-plugin-registry.js"
import { explainFailure } from "./startup-problems.js"
import { ensureBuilt } from "../../testing/hosts/build.js"
import { ROOT, startHost, stop, type Host } from "../../testing/hosts/child-hosts.js"
import { expectOneLine } from "../../testing/hosts/startup-runs.js"

const EXAMPLE = "./examples/acme-pay-plugin/acme-pay.mjs"
const ADMIN_TOKEN = "plugin-startup-admin-token-0123456789"

describe("standalone host: a gateway plugin that cannot be used stops the start with one line naming it", () => {
  let scratch = ""
  beforeAll(async () => {
    await ensureBuilt()
    scratch = mkdtempSync(join(tmpdir(), "mp-plugin-startup-"))
  }, 200_000)
  afterAll(() => {
    if (scratch !== "") rmSync(scratch, { recursive: true, force: true })
  })
  const env = (plugins: string, name: string) => ({ GATEWAY_PLUGINS: plugins, DATA_DIR: join(scratch, name), DEMO: "false" })

  it("a module that is not there", async () => {
    expect(await expectOneLine(env(`${EXAMPLE}, ./plugins/missing.mjs`, "missing"))).toBe(
      `merchant-payments: GATEWAY_PLUGINS: cannot load "./plugins/missing.mjs": no such file ${join(ROOT, "plugins", "missing.mjs")}`
    )
  }, 90_000)

  it("a module with a syntax error", async () => {
    const path = join(scratch, "broken.mjs")
    writeFileSync(path, `export default { id: "broken",\n`)
    expect(await expectOneLine(env(path, "broken"))).toBe(`merchant-payments: GATEWAY_PLUGINS: cannot load "${path}": SyntaxError: Unexpected end of input`)
  }, 90_000)

  it("a plugin written for API version 1", async () => {
    const path = join(scratch, "old-pay.mjs")
    writeFileSync(path, `export default { id: "old-pay", version: "0.9.0", apiVersion: 1 }\n`)
    expect(await expectOneLine(env(path, "old"))).toBe(
      `merchant-payments: Gateway plugin "old-pay" from ${path} cannot be loaded: it was written for gateway plugin API version 1, but this kit speaks version 2.`
    )
  }, 90_000)

  it("two modules with the same plugin id", async () => {
    const copy = join(scratch, "acme-copy.mjs")
    copyFileSync(join(ROOT, EXAMPLE), copy)
    expect(await expectOneLine(env(`${EXAMPLE},${copy}`, "duplicate"))).toBe(
      `merchant-payments: Gateway plugin "acme-pay" from ${copy} cannot be loaded: its id is already registered by ${EXAMPLE}.`
    )
  }, 90_000)
})

describe("explainFailure", () => {
  it("says a registry refusal in its own words", () => {
    const refusal = new IncompatibleGatewayPlugin({ plugin: "x", message: "Gateway plugin \"x\" from ./x.mjs cannot be loaded: its id is taken." })
    expect(explainFailure(refusal)).toBe(refusal.message)
  })
})

describe("standalone host: a plugin GATEWAY_PLUGINS names serves gateway records", () => {
  let host: Host | undefined
  let scratch = ""
  beforeAll(async () => {
    await ensureBuilt()
    scratch = mkdtempSync(join(tmpdir(), "mp-plugin-serving-"))
    host = await startHost(scratch, { GATEWAY_PLUGINS: EXAMPLE, GATEWAY_PLUGIN_TIMEOUT_MS: "2000", ADMIN_TOKEN, DEMO: "false" })
  }, 200_000)
  afterAll(async () => {
    if (host !== undefined) await stop(host)
    if (scratch !== "") rmSync(scratch, { recursive: true, force: true })
  })

  const createGateway = (config: Record<string, unknown>) =>
    fetch(`${host!.url}/admin/v1/gateways`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ plugin: "acme-pay", name: "Acme Pay", currency_code: "USD", method: "acme", config })
    })

  it("creates a gateway record with the plugin's config, never showing its secret, and refuses a config the plugin refuses", async () => {
    const created = await createGateway({ pay_page_url: "https://pay.acme.test/checkout", signing_secret: "acme_signing_secret_0123456789" })
    const text = await created.text()
    expect(created.status, text).toBe(201)
    expect(JSON.parse(text)).toMatchObject({ plugin: "acme-pay", code: "acme-usd", name: "Acme Pay" })
    expect(text).not.toContain("acme_signing_secret_0123456789")

    const refused = await createGateway({ pay_page_url: "https://pay.acme.test/checkout", signing_secret: "short" })
    const refusal = await refused.text()
    expect(refused.status, refusal).toBe(422)
    expect(refusal).toContain("signing_secret must be at least 16 characters")
  }, 30_000)
})
