import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createMerchantPayments, type MerchantPayments } from "../../hosts/embedding/index.js"

/** One delivery as a loopback receiver got it: its headers and its body's exact text. */
export interface Received {
  /** The path (and query) it was POSTed to: which of the receiver's URLs. */
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/** The admin API's answer: its status and parsed body. */
export interface AdminAnswer {
  readonly status: number
  // Each test reads the fields of the resource it asked for.
  readonly json: any
}

export interface RecordingReceiverHost {
  /** The kit's public origin (node:http in front of its handler). */
  readonly origin: string
  /** The receiver's origin: an ipn_url under it records every delivery in `received`. */
  readonly hook: string
  readonly received: Array<Received>
  readonly payments: MerchantPayments
  readonly admin: (method: string, path: string, body?: unknown) => Promise<AdminAnswer>
  readonly close: () => Promise<void>
}

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)))

const closing = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()))

/**
 * The kit on a fresh SQLite file behind node:http, driven through its admin HTTP API, and a loopback
 * receiver that answers 204 to every delivery and keeps it: what an integration sees from outside.
 */
export const startRecordingReceiverHost = async (options: { readonly adminToken: string; readonly masterKey: string }): Promise<RecordingReceiverHost> => {
  const received: Array<Received> = []
  const receiver = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk)).on("end", () => {
      received.push({ path: request.url ?? "/", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") })
      response.writeHead(204).end()
    })
  })
  const hook = await listen(receiver)
  let payments: MerchantPayments | undefined
  const server = createServer((request, response) => payments!.handler(request, response))
  const origin = await listen(server)
  payments = await createMerchantPayments({
    database: `sqlite:${join(mkdtempSync(join(tmpdir(), "mp-receiver-host-")), "payments.db")}`,
    masterKey: options.masterKey,
    adminToken: options.adminToken,
    baseUrl: origin,
    webhooks: { allowPrivateTargets: true, pollIntervalMillis: 20 },
    logging: false
  })
  const admin = async (method: string, path: string, body?: unknown): Promise<AdminAnswer> => {
    const response = await fetch(`${origin}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${options.adminToken}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, json: await response.json() }
  }
  const kit = payments
  return {
    origin, hook, received, payments: kit, admin,
    close: async () => {
      await kit.close()
      await closing(server)
      await closing(receiver)
    }
  }
}
