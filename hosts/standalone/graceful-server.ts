import { createServer, type Server } from "node:http"

/** How long requests in flight may take to finish once shutdown begins; then connections are cut. */
export const SHUTDOWN_GRACE_MS = 10_000

/**
 * A node:http server whose close() also lets go of keep-alive sockets as they fall idle. Node closes
 * only the connections idle at the moment close() is called; one that finishes its last response
 * afterwards would hold shutdown open until its keep-alive timeout, and a stuck client forever.
 */
export const createGracefulServer = (): Server => {
  const server = createServer()
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
