import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import { Webhook } from "standardwebhooks"

/** Listens on a free loopback port; answers the server's origin. */
export const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)))

/** Closes the server, its idle and open connections with it, so a test's end never waits on a keep-alive. */
export const closing = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })

/** One request as a loopback receiver got it: where it was POSTed, its headers and its body's exact text. */
export interface Received {
  /** The path (and query) it was sent to: which of the receiver's URLs. */
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

export interface RecordingReceiver {
  readonly url: string
  readonly received: Array<Received>
  readonly close: () => Promise<void>
}

/** A receiver that keeps every request and answers `status` (204 unless said): a merchant's webhook endpoint. */
export const startRecordingReceiver = async (status = 204): Promise<RecordingReceiver> => {
  const received: Array<Received> = []
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk)).on("end", () => {
      received.push({ path: request.url ?? "/", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") })
      response.writeHead(status).end()
    })
  })
  return { url: await listen(server), received, close: () => closing(server) }
}

/**
 * The reference library's verdict on a delivery, given the webhook secret as it was issued: the
 * verified payload, or the library's own error thrown.
 */
export const verifiedByStandardWebhooks = (secret: string, delivery: Pick<Received, "headers" | "body">): unknown =>
  new Webhook(secret).verify(delivery.body, {
    "webhook-id": String(delivery.headers["webhook-id"]),
    "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
    "webhook-signature": String(delivery.headers["webhook-signature"])
  })

/** Whether the reference library accepts the delivery under the secret as issued. */
export const standardWebhooksAccept = (secret: string, delivery: Pick<Received, "headers" | "body">): boolean => {
  try {
    verifiedByStandardWebhooks(secret, delivery)
    return true
  } catch {
    return false
  }
}
