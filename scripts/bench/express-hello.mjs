// Express 5's own floor: one route answering a small JSON with no work at all, beside bare
// node:http and the @effect/platform hello. What the hand-written twin's rows add on top of this
// one is its handlers' cost (signature, SQLite); the gap below bare node:http is Express's.
import express from "express"

const port = Number(process.env["PORT"] ?? "0")
const host = process.env["HOST"] ?? "127.0.0.1"

const app = express()
app.disable("x-powered-by")
app.get("/", (_request, response) => response.json({ status: "ok" }))

const server = app.listen(port, host)
// SIGTERM from the bench script: close cleanly so the exit is quick and quiet.
process.on("SIGTERM", () => {
  server.close(() => process.exit(0))
  server.closeAllConnections()
})
