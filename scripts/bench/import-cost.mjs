// What loading costs before a request is served, each measured in a fresh `node` process, median of
// five: bare node (an empty module), Express 5 imported, the kit's package imported, and the kit
// imported and started on a temporary SQLite file until it is ready (and its RSS two seconds idle
// after). The kit's package entry loads the kit on the first call of createMerchantPayments, so
// the import row alone is not what a platform pays to start serving: the "ready" row is.
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

const RUNS = 5

/** Runs `source` as an ES module in a fresh node; it prints one JSON line, which is returned. */
const inFreshNode = (source, cwd) => {
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", source], { cwd, encoding: "utf8" })
  if (run.status !== 0) throw new Error(`import measurement failed: ${run.stderr}`)
  return JSON.parse(run.stdout.trim().split("\n").pop())
}

const timed = (body) => `const t0 = performance.now(); ${body}
const ms = performance.now() - t0
console.log(JSON.stringify({ ms, rssMiB: process.memoryUsage().rss / 2 ** 20 }))`

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

const row = (label, source, cwd) => {
  const runs = Array.from({ length: RUNS }, () => inFreshNode(source, cwd))
  return { label, ms: median(runs.map((run) => run.ms)), rssMiB: median(runs.map((run) => run.rssMiB)) }
}

/** The rows, measured from `root` (this tree, built). */
export const measureImportCost = (root) => {
  const kit = pathToFileURL(join(root, "dist", "hosts", "embedding", "index.js")).href
  const dir = mkdtempSync(join(tmpdir(), "merchant-payments-import-"))
  try {
    const ready = `const { createMerchantPayments } = await import(${JSON.stringify(kit)})
const payments = await createMerchantPayments({ database: ${JSON.stringify(`sqlite:${join(dir, "ready.db")}`)}, masterKey: "77".repeat(32), baseUrl: "http://127.0.0.1", logging: false, backgroundJobs: false })`
    return [
      row("bare node (empty module)", timed("")),
      row("Express 5 imported", timed(`await import("express")`), root),
      row("kit package imported", timed(`await import(${JSON.stringify(kit)})`), root),
      row("kit imported and started (SQLite), until ready", timed(ready).replace("console.log(", "await payments.close(); console.log("), root),
      {
        ...row("kit started, idle 2 s later", `${ready}
await new Promise((resolve) => setTimeout(resolve, 2000))
console.log(JSON.stringify({ ms: 0, rssMiB: process.memoryUsage().rss / 2 ** 20 }))
await payments.close()`, root),
        ms: undefined
      }
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export const printImportCost = (rows) => {
  console.log(`loading, before any request (fresh node each, median of ${RUNS}):`)
  console.log(`${"row".padEnd(50)}${"ms".padStart(9)}${"RSS MiB".padStart(10)}`)
  for (const { label, ms, rssMiB } of rows) {
    console.log(`${label.padEnd(50)}${(ms === undefined ? "" : ms.toFixed(0)).padStart(9)}${rssMiB.toFixed(0).padStart(10)}`)
  }
}
