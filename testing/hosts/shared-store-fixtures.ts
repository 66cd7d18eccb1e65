/** Several built hosts on one PostgreSQL database: onboarding through the admin API, the database's own view, the receiver's tallies. */
import { spawn } from "node:child_process"
import { PgClient } from "@effect/sql-pg"
import { Effect, ManagedRuntime, Redacted } from "effect"
import { expect } from "vitest"
import { baseEnv, type Host, MAIN, received, ROOT } from "./child-hosts.js"
import { answer, type Answer, type Demo } from "./demo-fixtures.js"

/** `node main.js migrate` against `databaseUrl`, as docs/deployment.md asks before several hosts first start. */
export const migrateOnce = (databaseUrl: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, "migrate"], { cwd: ROOT, env: { ...baseEnv(), DATABASE_URL: databaseUrl }, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
    child.once("error", reject)
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`migrate exited ${code}:\n${output}`))))
  })

export const adminCall = async (host: Pick<Host, "url">, token: string, method: string, path: string, body?: unknown): Promise<Answer> =>
  answer(await fetch(`${host.url}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? null : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000)
  }))

const expectStatus = (what: string, reply: Answer, status: number) => {
  expect(reply.status, `${what}: ${reply.text}`).toBe(status)
  return reply.json
}

export interface OnboardedMerchant extends Demo {
  readonly wallet_id: number
}

/**
 * An approved merchant with USD, a sandbox USD wallet and sandbox credentials, made through the admin
 * API: with PostgreSQL the demo seed's credentials are printed once by the host that seeded, so a test
 * (or an operator) of several hosts onboards its merchants this way.
 */
export const onboardMerchant = async (host: Pick<Host, "url">, token: string, name: string, fees: { readonly fee_percent: string; readonly fee_fixed: string }): Promise<OnboardedMerchant> => {
  const merchant = expectStatus("create merchant", await adminCall(host, token, "POST", "/merchants", { name, status: "approved", ...fees }), 201)
  expectStatus("currencies", await adminCall(host, token, "PUT", `/merchants/${merchant.id}/currencies`, { currency_codes: ["USD"] }), 200)
  const wallet = expectStatus("wallet", await adminCall(host, token, "POST", `/merchants/${merchant.id}/wallets`, { currency_code: "USD", environment: "sandbox" }), 201)
  const credentials = expectStatus("credentials", await adminCall(host, token, "POST", `/merchants/${merchant.id}/credentials`, { environment: "sandbox" }), 201)
  return { merchant_id: merchant.id, wallet_id: wallet.id, ...credentials }
}

/** Moves every host's manual business clock by the same amount, so they keep telling the same time. */
export const advanceClocks = async (hosts: ReadonlyArray<Host>, token: string, seconds: number): Promise<void> => {
  const moved = await Promise.all(hosts.map((host) => adminCall(host, token, "POST", "/clock/advance", { seconds })))
  for (const reply of moved) expect(reply.status, reply.text).toBe(200)
  expect(new Set(moved.map((reply) => reply.json.now)).size, "the hosts' business clocks differ").toBe(1)
}

export interface Database {
  readonly rows: (statement: string, params?: ReadonlyArray<unknown>) => Promise<ReadonlyArray<Record<string, any>>>
  readonly close: () => Promise<void>
}

/** The hosts' database as they leave it: the one place that knows whether something happened twice. */
export const openDatabase = (url: string): Database => {
  const runtime = ManagedRuntime.make(PgClient.layer({ url: Redacted.make(url), maxConnections: 2 }))
  return {
    rows: (statement, params = []) =>
      runtime.runPromise(Effect.flatMap(PgClient.PgClient, (sql) => sql.unsafe<Record<string, any>>(statement, params))),
    close: () => runtime.dispose()
  }
}

/** Waits until no delivery is pending, then a little longer: a late duplicate send has time to arrive. */
export const outboxDrained = async (database: Database, settleMs = 600): Promise<true | undefined> => {
  const [pending] = await database.rows("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'")
  if (Number(pending!["n"]) > 0) return undefined
  await new Promise((resolve) => setTimeout(resolve, settleMs))
  return true
}

export interface ReceivedEvent {
  readonly eventId: string
  readonly body: Record<string, any>
}

/** Everything the receiver got so far, parsed, with the event id each delivery carried. */
export const receivedEvents = (): ReadonlyArray<ReceivedEvent> =>
  received.map((request) => ({ eventId: String(request.headers["x-event-id"]), body: JSON.parse(request.text) as Record<string, any> }))

/** No event id arrived twice, across everything every host sent in this run. */
export const expectNoEventTwice = () => {
  const ids = receivedEvents().map((event) => event.eventId)
  const twice = ids.filter((id, index) => ids.indexOf(id) !== index)
  expect(twice, "event ids delivered more than once").toEqual([])
}
