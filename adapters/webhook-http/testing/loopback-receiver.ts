import * as http from "node:http"
import type { AddressInfo } from "node:net"

/** One request as the receiver saw it on the wire. */
export interface ReceivedRequest {
  readonly method: string
  readonly path: string
  readonly headers: http.IncomingHttpHeaders
  readonly body: Buffer
  /** The address the sender dialled: proves which resolved address was used. */
  readonly localAddress: string
}

/** What the receiver does with a request once its body has been read. */
export type Reply = (response: http.ServerResponse, request: ReceivedRequest) => void

export interface LoopbackReceiver {
  readonly port: number
  readonly url: (path?: string, host?: string) => string
  readonly received: ReadonlyArray<ReceivedRequest>
  /** TCP connections accepted, whether or not a request followed. */
  readonly connections: () => number
  readonly close: () => Promise<void>
}

export const replyWith = (statusCode: number, headers: http.OutgoingHttpHeaders = {}): Reply => (response) => {
  response.writeHead(statusCode, headers)
  response.end("ok")
}

/** Reads the request and never answers: the sender's timeout must end the attempt. */
export const neverReply: Reply = () => {}

/**
 * A real HTTP server on a loopback address and an ephemeral port, so the sender is tested over an
 * actual socket instead of a mocked client.
 */
export const startReceiver = (reply: Reply = replyWith(200), host = "127.0.0.1"): Promise<LoopbackReceiver> =>
  new Promise((resolve, reject) => {
    const received: Array<ReceivedRequest> = []
    let connections = 0
    const server = http.createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const seen: ReceivedRequest = {
          method: request.method ?? "",
          path: request.url ?? "",
          headers: request.headers,
          body: Buffer.concat(chunks),
          localAddress: request.socket.localAddress ?? ""
        }
        received.push(seen)
        reply(response, seen)
      })
    })
    server.on("connection", () => {
      connections += 1
    })
    server.on("error", reject)
    server.listen(0, host, () => {
      const { port } = server.address() as AddressInfo
      const urlHost = host.includes(":") ? `[${host}]` : host
      resolve({
        port,
        url: (path = "/webhook", overrideHost = urlHost) => `http://${overrideHost}:${port}${path}`,
        received,
        connections: () => connections,
        close: () =>
          new Promise<void>((done) => {
            // A never-answering handler leaves sockets open; close them so close() returns.
            server.closeAllConnections()
            server.close(() => done())
          })
      })
    })
  })
