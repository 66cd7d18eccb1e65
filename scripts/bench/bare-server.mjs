// The baseline: the least work a Node HTTP server can do per request, so the ratio against it shows
// what the kit's stack (routing, auth, HMAC, rate limit, store) costs on the same runtime and machine.
import { createServer } from "node:http"

const body = JSON.stringify({ status: "ok" })
const port = Number(process.env["PORT"] ?? "0")
const host = process.env["HOST"] ?? "127.0.0.1"

const server = createServer((_request, response) => {
  response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
  response.end(body)
})

server.listen(port, host)
// SIGTERM from the bench script: close cleanly so the exit is quick and quiet.
process.on("SIGTERM", () => {
  server.close(() => process.exit(0))
  server.closeAllConnections()
})
