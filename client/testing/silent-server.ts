import { createServer, type IncomingHttpHeaders } from "node:http"

/**
 * An HTTP server that reads each request and never answers it: a host that hangs, over a real
 * socket, for the client's per-attempt timeout to end.
 */
export const startSilentServer = async () => {
  const requests: Array<{ readonly url: string; readonly headers: IncomingHttpHeaders; readonly at: number }> = []
  const server = createServer((request) => {
    requests.push({ url: request.url ?? "", headers: request.headers, at: Date.now() })
    request.resume()
  })
  const url = await new Promise<string>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`))
  })
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  return { url, requests, close }
}
