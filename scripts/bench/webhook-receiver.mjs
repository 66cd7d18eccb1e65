// The fast local receiver of webhook-throughput.mjs, in its own process so its work never lands on
// the host's event loop: one node:http server per merchant port, answering 204 at once and noting,
// per event id, when its first attempt arrived and on which port. Driven over IPC: it answers
// "listening" with its ports, and each { take: true } with what arrived since the last take.
import { createServer } from "node:http"
import { performance } from "node:perf_hooks"

const count = Number(process.argv[2] ?? "1")
/** Arrival in epoch milliseconds, sub-millisecond: delivery rows' created_at is epoch microseconds. */
const wallMs = () => performance.timeOrigin + performance.now()

let ids = []
let ports = []
let times = []
const seen = new Set()
let repeats = 0

const listen = (index) =>
  new Promise((resolve) => {
    const server = createServer((request, response) => {
      const at = wallMs()
      const id = request.headers["webhook-id"]
      request.resume()
      request.on("end", () => {
        response.writeHead(204)
        response.end()
      })
      if (typeof id !== "string") return
      if (seen.has(id)) {
        repeats++
        return
      }
      seen.add(id)
      ids.push(id)
      ports.push(index)
      times.push(at)
    })
    server.keepAliveTimeout = 5_000
    server.listen(0, "127.0.0.1", () => resolve(server.address().port))
  })

const listening = await Promise.all(Array.from({ length: count }, (_, index) => listen(index)))
process.send?.({ listening })
process.on("message", (message) => {
  if (message?.take === true) {
    process.send?.({ ids, ports, times, repeats })
    ids = []
    ports = []
    times = []
  }
})
process.on("disconnect", () => process.exit(0))
