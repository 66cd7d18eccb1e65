import { execFile, spawn } from "node:child_process"
import { createHmac } from "node:crypto"
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pressButton } from "../conformance/gateway/html-forms.js"
import { packPackage } from "./testing/pack-package.js"

// The package as an installing app meets it: built once, packed with `npm pack` (so `files` and
// `exports` are what is tested), unpacked into a scratch app outside the repository, and imported
// there by plain Node resolution. The README's examples run in that app as pasted.
const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const run = promisify(execFile)
const scratch = mkdtempSync(join(tmpdir(), "mp-package-"))
const app = join(scratch, "app")
const installed = join(app, "node_modules", "merchant-payments")
const node = process.execPath
const readme = readFileSync(join(root, "README.md"), "utf8")

/** The first fenced block of `lang` after `heading` in the README, exactly as a reader copies it. */
const readmeBlock = (heading: string, lang: string) => {
  const at = readme.indexOf(heading)
  if (at === -1) throw new Error(`the README has no "${heading}"`)
  const section = readme.slice(at)
  const start = section.indexOf("```" + lang + "\n") + lang.length + 4
  return section.slice(start, section.indexOf("```", start))
}

/** The README's "A signed request" (bash running node), as pasted. */
const readmeSignedRequest = () => readmeBlock("## A signed request", "sh")

beforeAll(async () => {
  const tarball = await packPackage(scratch)
  mkdirSync(installed, { recursive: true })
  await run("tar", ["-xzf", tarball, "-C", installed, "--strip-components=1"])
  // The package's dependencies, and the app's own (vitest for the storage suite), as npm would
  // have installed them: taken from this checkout rather than a registry.
  symlinkSync(join(root, "node_modules"), join(installed, "node_modules"), "dir")
  for (const name of ["effect", "vitest", "@effect"]) symlinkSync(join(root, "node_modules", name), join(app, "node_modules", name), "dir")
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "scratch-app", type: "module", private: true }))
}, 180_000)

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe("the package, installed in an app", () => {
  it("ships the licence and only the compiled code its exports need, no tests", () => {
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"))
    expect(manifest).toMatchObject({ license: "MIT" })
    expect(manifest.private).toBeUndefined()
    expect(readFileSync(join(installed, "LICENSE"), "utf8")).toContain("Copyright (c) 2026 merchant-payments contributors")
    expect(readFileSync(join(installed, "dist/core/webhooks/verify-webhook.d.ts"), "utf8")).toContain("verifyWebhook")
    expect(() => readFileSync(join(installed, "dist/core/webhooks/verify-webhook.test.js"))).toThrow()
  })

  it("resolves merchant-payments/webhooks through the exports map, and nothing unexported", async () => {
    writeFileSync(join(app, "resolve.mjs"), `
      import { verifyWebhook } from "merchant-payments/webhooks"
      const refused = await import("merchant-payments/core/webhooks/verify-webhook.js").then(() => "resolved", (e) => e.code)
      console.log(JSON.stringify({ verifyWebhook: typeof verifyWebhook, deepImport: refused }))`)
    const { stdout } = await run(node, ["resolve.mjs"], { cwd: app })
    expect(JSON.parse(stdout)).toEqual({ verifyWebhook: "function", deepImport: "ERR_PACKAGE_PATH_NOT_EXPORTED" })
  })

  it("resolves every entry the exports map names, each with something to import", async () => {
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as { exports: Record<string, unknown> }
    const entries = Object.keys(manifest.exports).filter((key) => key !== "./package.json").map((key) => `merchant-payments${key.slice(1)}`)
    expect(entries).toEqual(expect.arrayContaining([
      "merchant-payments", "merchant-payments/effect", "merchant-payments/storage/sqlite", "merchant-payments/storage/postgres",
      "merchant-payments/plugin", "merchant-payments/plugin-testing", "merchant-payments/webhooks", "merchant-payments/client",
      "merchant-payments/conformance/storage", "merchant-payments/conformance/http", "merchant-payments/conformance/gateway"
    ]))
    // Under vitest: the conformance entries are test suites, which may only be imported by a runner.
    writeFileSync(join(app, "resolve-all.test.ts"), `
      import { expect, it } from "vitest"
      it("imports every entry", async () => {
        for (const entry of ${JSON.stringify(entries)}) expect(Object.keys(await import(entry)).length, entry).toBeGreaterThan(0)
      })`)
    await run(node, [join(root, "node_modules/vitest/vitest.mjs"), "run", "--root", app, "resolve-all"], {
      cwd: app,
      env: { ...process.env, NO_COLOR: "1" }
    })
  }, 60_000)

  it("types both exports for TypeScript (NodeNext): a call with the old single secret does not compile", async () => {
    writeFileSync(join(app, "tsconfig.json"), JSON.stringify({
      compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, skipLibCheck: true, types: [] },
      files: ["check.ts"]
    }))
    writeFileSync(join(app, "check.ts"), `
      import { verifyWebhook, type WebhookCheck } from "merchant-payments/webhooks"
      import { storageConformance } from "merchant-payments/conformance/storage"
      const check: WebhookCheck = verifyWebhook({ webhookSecret: "w", clientSecret: "c", rawBody: "{}", signature: undefined })
      // @ts-expect-error the client secret is required: refund events are signed with it
      verifyWebhook({ webhookSecret: "w", rawBody: "{}", signature: undefined })
      export const used: [WebhookCheck, typeof storageConformance] = [check, storageConformance]`)
    await run(node, [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: app })
  }, 60_000)

  it("runs the README's storage conformance file as pasted: vitest collects every case from the export", async () => {
    writeFileSync(join(app, "my-store.js"), `import { Layer } from "effect"\nexport const MyStore = { layer: () => Layer.empty }\n`)
    writeFileSync(join(app, "my-store.test.ts"), readmeBlock("A storage adapter proves itself", "ts"))
    const { stdout } = await run(node, [join(root, "node_modules/vitest/vitest.mjs"), "list", "--root", app], { cwd: app })
    expect(stdout).toContain("storage conformance: my-store > merchant: lists newest first")
    expect(stdout.split("\n").filter((line) => line.includes("storage conformance: my-store")).length).toBeGreaterThan(40)
  }, 60_000)

  it("runs docs/plugins.md's plugin test file as pasted, from the installed package, against the Acme Pay example: every case passes", async () => {
    for (const file of ["acme-pay.mjs", "acme-pay-gateway.mjs"]) cpSync(join(root, "examples", "acme-pay-plugin", file), join(app, file))
    const guide = readFileSync(join(root, "docs", "plugins.md"), "utf8")
    const section = guide.slice(guide.indexOf("## Testing your plugin"))
    const start = section.indexOf("```ts\n") + 6
    writeFileSync(join(app, "acme-pay.conformance.test.ts"), section.slice(start, section.indexOf("```", start)))
    const { stdout } = await run(node, [join(root, "node_modules/vitest/vitest.mjs"), "run", "--root", app, "acme-pay.conformance"], {
      cwd: app,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" }
    })
    expect(stdout).toMatch(/Tests\s+\d+ passed \| \d+ skipped/)
    expect(stdout).not.toContain("failed")
  }, 120_000)
})

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

describe("the README's webhook receiver, as pasted", () => {
  const secrets = { WEBHOOK_SECRET: "whsec_readme", CLIENT_SECRET: "cs_readme" }
  const payment = JSON.stringify({ event: "payment.completed", status: "completed", data: { ref_trx: "order-1", trx_id: "PRODUCTION_1", amount: 100 } })
  const refund = JSON.stringify({ event: "payment.refunded", status: "refunded", data: { original_trx_id: "PRODUCTION_1", refund_trx_id: "PRODUCTION_R1", refunded_amount: 25 } })
  const sign = (secret: string, body: string) => createHmac("sha256", secret).update(body).digest("hex")

  it("fulfils a payment once, takes a refund signed with the client secret, refuses the rest", async () => {
    writeFileSync(join(app, "ipn.mjs"), readmeBlock("## Receiving webhooks", "js"))
    const port = await freePort()
    const child = spawn(node, ["ipn.mjs"], { cwd: app, env: { ...process.env, ...secrets, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    let refusals = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (refusals += chunk))
    try {
      const post = async (body: string, signature: string | undefined, environment = "production", extra: Record<string, string> = {}) => {
        for (let attempt = 0; ; attempt++) {
          try {
            const response = await fetch(`http://127.0.0.1:${port}/ipn`, {
              method: "POST",
              body,
              headers: { "content-type": "application/json", ...(signature === undefined ? {} : { "x-signature": signature }), "x-environment": environment, ...extra }
            })
            return response.status
          } catch (error) {
            if (attempt > 100) throw new Error(`the receiver did not start: ${output}${refusals}`, { cause: error })
            await new Promise((resolve) => setTimeout(resolve, 50))
          }
        }
      }
      expect(await post(payment, sign(secrets.WEBHOOK_SECRET, payment))).toBe(200)
      expect(await post(payment, `sha256=${sign(secrets.WEBHOOK_SECRET, payment)}`)).toBe(200)
      expect(await post(refund, sign(secrets.CLIENT_SECRET, refund))).toBe(200)
      expect(await post(refund, sign(secrets.WEBHOOK_SECRET, refund))).toBe(401)
      expect(await post(payment, sign(secrets.CLIENT_SECRET, payment))).toBe(401)
      expect(await post(payment, sign(secrets.WEBHOOK_SECRET, payment), "sandbox")).toBe(401)
      expect(await post("not json", sign(secrets.WEBHOOK_SECRET, "not json"))).toBe(401)
      // The Standard Webhooks form, signed by the reference library: taken now, refused as a replay later.
      // The webhook secret goes to the library as it is: a whsec_ secret is keyed by the base64 after its prefix.
      const standard = new Webhook(secrets.WEBHOOK_SECRET)
      const second = payment.replace("order-1", "order-2").replace("PRODUCTION_1", "PRODUCTION_2")
      const standardHeaders = (at: Date) => ({
        "webhook-id": "evt_2", "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": standard.sign("evt_2", at, second)
      })
      expect(await post(second, undefined, "production", standardHeaders(new Date()))).toBe(200)
      expect(await post(second, undefined, "production", standardHeaders(new Date(Date.now() - 3_600_000)))).toBe(401)
      expect(await post(second, undefined, "production", { ...standardHeaders(new Date()), "webhook-id": "evt_3" })).toBe(401)
      // During a rotation's overlap a delivery carries a signature per live secret: one the receiver
      // does not hold beside one it does is accepted, and the one it does not hold alone is not.
      const rotated = new Webhook("whsec_theOtherOne")
      const third = payment.replace("order-1", "order-3").replace("PRODUCTION_1", "PRODUCTION_3")
      const now = new Date()
      const overlapHeaders = (signatures: ReadonlyArray<string>) => ({
        "webhook-id": "evt_4", "webhook-timestamp": String(Math.floor(now.getTime() / 1000)), "webhook-signature": signatures.join(" ")
      })
      expect(await post(third, undefined, "production", overlapHeaders([rotated.sign("evt_4", now, third)]))).toBe(401)
      expect(await post(third, undefined, "production", overlapHeaders([rotated.sign("evt_4", now, third), standard.sign("evt_4", now, third)]))).toBe(200)
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(output.trim().split("\n")).toEqual(["ship order-1", "refund PRODUCTION_R1 of PRODUCTION_1", "ship order-2", "ship order-3"])
      // No refusal is silent: each says why, in the order they came.
      expect(refusals.trim().split("\n")).toEqual([
        "refused: bad_signature", "refused: bad_signature", "refused: environment_mismatch", "refused: malformed_body",
        "refused: stale_timestamp", "refused: bad_signature", "refused: bad_signature"
      ])
    } finally {
      child.kill()
    }
  }, 30_000)
})

/** A child of the test with its output kept, run in the app as a person at a terminal would run it. */
const started = (command: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv) => {
  const child = spawn(command, args, { cwd: app, env, stdio: ["ignore", "pipe", "pipe"] })
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (chunk) => (stdout += chunk))
  child.stderr.on("data", (chunk) => (stderr += chunk))
  return { child, stdout: () => stdout, stderr: () => stderr }
}

const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** The `export` lines a banner or a script printed, exactly as a person selects and pastes them. */
const exportLinesIn = (text: string) => text.split("\n").filter((line) => line.trimStart().startsWith("export ")).join("\n")

/** `script` after the pasted export lines, in a shell of its own (nothing else of this process's environment). */
const inShell = (exports: string, script: string, env: Readonly<Record<string, string>> = {}) =>
  ["bash", ["-c", `${exports}\n${script}`], { PATH: process.env["PATH"], HOME: process.env["HOME"], ...env }] as const

describe("the README's webhook receiver and pay.mjs, with the demo merchant of a standalone host", () => {
  it("receives the demo's real sandbox event: the host started as the README says, the receiver and pay.mjs after the printed export lines", async () => {
    writeFileSync(join(app, "ipn.mjs"), readmeBlock("## Receiving webhooks", "js"))
    writeFileSync(join(app, "pay.mjs"), readmeBlock("**Trying it with the demo merchant.**", "js"))
    const [hostPort, receiverPort] = [await freePort(), await freePort()]
    const dataDir = mkdtempSync(join(scratch, "demo-data-"))
    // `WEBHOOK_ALLOW_PRIVATE_TARGETS=true npm start`: the host the package ships, as npm start runs it after its build.
    const host = started(node, [join(installed, "dist/hosts/standalone/main.js"), "serve"], {
      PATH: process.env["PATH"], HOME: process.env["HOME"], PORT: String(hostPort), DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE_TARGETS: "true"
    })
    let receiver: ReturnType<typeof started> | undefined
    try {
      await until("the host's banner", () => host.stdout().includes("export WEBHOOK_SECRET="))
      const exports = exportLinesIn(host.stdout())
      const [shell, args, env] = inShell(exports, "exec node ipn.mjs", { PORT: String(receiverPort) })
      receiver = started(shell, args, env)
      const [payShell, payArgs, payEnv] = inShell(exports, "exec node pay.mjs", { PORT: String(receiverPort) })
      const { stdout } = await run(payShell, payArgs, { cwd: app, env: payEnv })
      const trxId = /^paid (SANDBOX_\S+)/.exec(stdout)?.[1]
      expect(trxId, stdout).toBeDefined()
      await until("the receiver to ship the order", () => /^ship order-\d+$/m.test(receiver!.stdout()), 30_000)
      expect(receiver.stderr(), "the receiver refused a delivery").toBe("")
      expect(receiver.stdout().trim().split("\n")).toHaveLength(1)
    } finally {
      receiver?.child.kill()
      host.child.kill("SIGTERM")
    }
  }, 120_000)
})

describe("the README's embedding example, as pasted, in an app that installed the package", () => {
  it("mounts the kit under /payments in under 20 lines; onboard.mjs makes a shop whose export lines sign the README's request, and a payment through it is paid and verifies", async () => {
    const snippet = readmeBlock("## Embedding in your Node app", "js")
    expect(snippet.trim().split("\n").length).toBeLessThan(20)
    writeFileSync(join(app, "embed.mjs"), snippet)
    const port = await freePort()
    const origin = `http://localhost:${port}`
    const child = spawn(node, ["embed.mjs"], { cwd: app, env: { ...process.env, MASTER_KEY: "44".repeat(32), PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    try {
      for (let attempt = 0; ; attempt++) {
        const health = await fetch(`${origin}/payments/healthz`).then((response) => response.status, () => 0)
        if (health === 200) break
        if (attempt > 200) throw new Error(`the embedded app did not start: ${output}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      expect(await (await fetch(`${origin}/`)).text()).toBe("the app's own page")
      // The README's onboarding, as pasted, beside the running app: its export lines are what the other examples read.
      writeFileSync(join(app, "onboard.mjs"), readmeBlock("The kit starts empty", "js"))
      const onboarded = await run(node, ["onboard.mjs"], { cwd: app, env: { PATH: process.env["PATH"], MASTER_KEY: "44".repeat(32), PORT: String(port) } })
      const exports = exportLinesIn(onboarded.stdout)
      const exported = Object.fromEntries([...exports.matchAll(/^export (\w+)=(\S+)$/gm)].map((line) => [line[1]!, line[2]!]))
      expect(Object.keys(exported)).toEqual(["PAYMENTS_URL", "PAYMENTS_ENVIRONMENT", "MERCHANT_KEY", "API_KEY", "CLIENT_SECRET", "WEBHOOK_SECRET"])
      expect(exported["PAYMENTS_URL"]).toBe(`${origin}/payments`)
      // The README's signed request, as pasted after those lines, reaches the mounted kit (signed relative to its base path).
      const [shell, args, env] = inShell(exports, readmeSignedRequest())
      expect((await run(shell, args, { cwd: app, env })).stdout).toMatch(/^200 \{/)
      const merchant = merchantScript(app, origin, {
        merchant_key: exported["MERCHANT_KEY"]!, api_key: exported["API_KEY"]!, client_secret: exported["CLIENT_SECRET"]!
      })
      const session = await merchant("initiate", "scratch-1")
      expect(session.payment_url.startsWith(`${origin}/payments/checkout/`), JSON.stringify(session)).toBe(true)
      await payOnCheckoutPage(session.payment_url)
      expect(await merchant("verify", session.info.trx_id)).toMatchObject({ status: "success", trx_id: session.info.trx_id, amount: "42" })

      // The document the mounted kit serves names every route that answered above, under its base path.
      const document = await (await fetch(`${origin}/payments/openapi.json`)).json() as { servers: Array<{ url: string }>; paths: Record<string, Record<string, unknown>> }
      expect(document.servers[0]!.url).toBe(`${origin}/payments`)
      const answered: ReadonlyArray<readonly [string, string]> = [
        ["get", "/healthz"], ["post", "/api/v1/initiate-payment"], ["get", "/api/v1/verify-payment/{trxId}"]
      ]
      for (const [method, path] of answered) expect(document.paths[path]?.[method], `${method} ${path}`).toBeDefined()
      const checkout = Object.entries(document.paths).filter(([path]) => path.startsWith("/checkout/"))
      expect(checkout.some(([, operations]) => "get" in operations), "the checkout page").toBe(true)
      expect(checkout.filter(([, operations]) => "post" in operations).length, "pay and return").toBeGreaterThanOrEqual(2)
    } finally {
      child.kill()
    }
  }, 60_000)
})

/**
 * The merchant's side runs in the app too, on the installed `merchant-payments/client`: a signed
 * initiate through the mounted kit, then (after the customer paid) verify.
 */
const merchantScript = (appDir: string, origin: string, merchant: { merchant_key: string; api_key: string; client_secret: string }) => {
  writeFileSync(join(appDir, "merchant.mjs"), `
    import { createMerchantClient } from "merchant-payments/client"
    const client = createMerchantClient({
      baseUrl: ${JSON.stringify(`${origin}/payments`)}, environment: "sandbox",
      merchantKey: ${JSON.stringify(merchant.merchant_key)}, apiKey: ${JSON.stringify(merchant.api_key)}, clientSecret: ${JSON.stringify(merchant.client_secret)}
    })
    const [command, argument] = process.argv.slice(2)
    const answer = command === "initiate"
      ? await client.initiatePayment({ payment_amount: "42.00", currency_code: "USD", ref_trx: argument,
          success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/c", ipn_url: "https://shop.example/ipn" })
      : await client.verifyPayment(argument)
    console.log(JSON.stringify(answer))`)
  return async (command: "initiate" | "verify", argument: string) =>
    JSON.parse((await run(node, ["merchant.mjs", command, argument], { cwd: appDir })).stdout.trim().split("\n").pop()!) as any
}

/** The customer pays with the sandbox on the checkout page the mounted kit serves. */
const payOnCheckoutPage = async (paymentUrl: string) => {
  const form = (fields: Readonly<Record<string, string>>) => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString(), redirect: "manual" as const })
  const page = await (await fetch(paymentUrl)).text()
  const gatewayId = /name="gateway_id" value="(\d+)"/.exec(page)![1]!
  const gatewayPage = await (await fetch(`${paymentUrl}/pay`, form({ gateway_id: gatewayId }))).text()
  const pay = pressButton(gatewayPage, "pay")!
  const returned = await fetch(pay.action!, form(pay.fields))
  expect(returned.status).toBe(303)
}
