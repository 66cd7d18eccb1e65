import { createServer } from "node:http"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createMerchantPayments, type MerchantPayments } from "../../hosts/embedding/index.js"
import { closing, listen, type Received, startRecordingReceiver } from "../../testing/http/loopback.js"

export type { Received } from "../../testing/http/loopback.js"

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

/**
 * The kit on a fresh SQLite file behind node:http, driven through its admin HTTP API, and a loopback
 * receiver that answers 204 to every delivery and keeps it: what an integration sees from outside.
 */
export const startRecordingReceiverHost = async (options: { readonly adminToken: string; readonly masterKey: string }): Promise<RecordingReceiverHost> => {
  const receiver = await startRecordingReceiver()
  const { received, url: hook } = receiver
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
      await receiver.close()
    }
  }
}
