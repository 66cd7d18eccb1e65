import { runLoad } from "./scripts/bench/load.mjs"
import { freePort, startNode, stop, waitForOk } from "./scripts/bench/processes.mjs"
for (let i = 0; i < 2; i++) for (const mode of ["platform", "lean"]) {
  const port = await freePort()
  const s = startNode(mode, ["proto-hello.tmp.mjs"], { ...process.env, MODE: mode, PORT: String(port) }, "/tmp/proto.log")
  await waitForOk(s, `http://127.0.0.1:${port}/`)
  const r = await runLoad({ base: `http://127.0.0.1:${port}`, kind: "plain", path: "/", connections: 50, warmupSeconds: 1, durationSeconds: 4 })
  console.log(mode, Math.round(r.rps), (1e6 / r.rps).toFixed(1), "µs/req")
  await stop(s)
}
