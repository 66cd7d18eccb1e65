/** Kits served over loopback HTTP, the built CLI, and the store's own view, for the master key rotation suites. */
import { spawn } from "node:child_process"
import { createServer, type IncomingHttpHeaders } from "node:http"
import { listen } from "../http/loopback.js"
import { SqlClient } from "@effect/sql"
import { Effect, Either, type Layer, ManagedRuntime } from "effect"
import { createMerchantClient, type MerchantClient } from "../../client/index.js"
import { sealedValuesIn } from "../../core/signing/reseal.js"
import { open } from "../../core/signing/secret-box.js"
import { createMerchantPayments, type IssuedCredentials, type MerchantPayments, type MerchantPaymentsOptions } from "../../hosts/embedding/index.js"
import { baseEnv, MAIN, ROOT } from "./child-hosts.js"


export interface ServedKit {
  readonly payments: MerchantPayments
  readonly origin: string
  readonly close: () => Promise<void>
}

/** A kit on its own loopback server; links it issues point at that server. */
export const serveKit = async (options: Omit<MerchantPaymentsOptions, "baseUrl">): Promise<ServedKit> => {
  let payments: MerchantPayments | undefined
  const server = createServer((request, response) => payments!.handler(request, response))
  const origin = await listen(server)
  payments = await createMerchantPayments({ ...options, baseUrl: origin })
  const kit = payments
  return {
    payments: kit,
    origin,
    close: async () => {
      await kit.close()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }
}

export const clientFor = (origin: string, credentials: IssuedCredentials, environment: "sandbox" | "production" = "sandbox"): MerchantClient =>
  createMerchantClient({
    baseUrl: origin,
    environment,
    merchantKey: credentials.merchant_key,
    apiKey: credentials.api_key,
    clientSecret: credentials.client_secret,
    webhookSecret: credentials.webhook_secret
  })

export interface Delivery {
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/** The merchants' receiver: records every request and answers 200. */
export const startReceiver = async () => {
  const received: Array<Delivery> = []
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") })
      response.writeHead(200).end()
    })
  })
  const url = await listen(server)
  return { received, url, stop: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }) }
}

export interface CliRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** The built CLI with `args` and nothing of the caller's environment but `env`. */
export const runCli = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>>) =>
  new Promise<CliRun>((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, env: { ...baseEnv(), LOG_LEVEL: "warn", ...env }, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
    child.once("exit", (code) => resolve({ code, stdout, stderr }))
  })

/** The store as the rotation leaves it, through a client of its own. */
export const storeView = (client: Layer.Layer<SqlClient.SqlClient, unknown>) => {
  const runtime = ManagedRuntime.make(client)
  const rows = (statement: string) =>
    runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<Record<string, unknown>>(statement)))
  const tables = () =>
    runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql.onDialectOrElse({
        pg: () => sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
        orElse: () => sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
      })))
  return {
    rows,
    /**
     * Every sealed value in every text column of every table, wherever it sits: a column the
     * rotation does not know would show here with a value under the old key.
     */
    sealedValues: async (): Promise<ReadonlyArray<{ readonly where: string; readonly sealed: string }>> => {
      const found: Array<{ where: string; sealed: string }> = []
      for (const { name } of await tables()) {
        for (const row of await rows(`SELECT * FROM ${name}`)) {
          for (const [column, value] of Object.entries(row)) {
            if (typeof value !== "string") continue
            for (const sealed of sealedValuesIn(value)) found.push({ where: `${name}.${column}`, sealed })
          }
        }
      }
      return found
    },
    close: () => runtime.dispose()
  }
}

/** Where each sealed value does not open under `key` alone. */
export const notOpeningUnder = (key: Uint8Array, values: ReadonlyArray<{ readonly where: string; readonly sealed: string }>) =>
  values.filter((value) => Either.isLeft(open(key, value.sealed))).map((value) => value.where)
