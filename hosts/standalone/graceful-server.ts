import { createServer, type Server } from "node:http"
import type { HttpTimeouts } from "../embedding/host-config.js"

/** How long requests in flight may take to finish once shutdown begins; then connections are cut. */
export const SHUTDOWN_GRACE_MS = 10_000

/**
 * A node:http server whose close() also lets go of keep-alive sockets as they fall idle. Node closes
 * only the connections idle at the moment close() is called; one that finishes its last response
 * afterwards would hold shutdown open until its keep-alive timeout, and a stuck client forever.
 *
 * A client that sends its headers slowly, or its headers and then too little body, is answered 408
 * and cut once the timeouts pass (Node's defaults would hold it for 300 s). Node checks them on an
 * interval, 30 s by default: a tenth of the header timeout keeps the cut close to the setting.
 */
export const createGracefulServer = (timeouts: HttpTimeouts): Server => {
  const server = createServer({
    headersTimeout: timeouts.headersTimeoutMs,
    requestTimeout: timeouts.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(timeouts.headersTimeoutMs / 10)))
  })
  const close = server.close.bind(server)
  server.close = ((callback?: (error?: Error) => void) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 100)
    const deadline = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS)
    server.once("close", () => {
      clearInterval(sweep)
      clearTimeout(deadline)
    })
    return close(callback)
  }) as Server["close"]
  return server
}
