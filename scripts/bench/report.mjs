// What `npm run bench` prints: the HTTP rows, the durable-commit ceilings, and each kit row as a
// ratio to its hand-written twin. Numbers for a reader; nothing here decides an exit code.

/**
 * @typedef {import("./load.mjs").LoadResult & { idleRssMiB?: number, peakRssMiB?: number }} Measured
 * @typedef {{ label: string, group: "floor"|"twin"|"kit", route?: string, store?: string, result: Measured }} HttpRow
 * @typedef {{ label: string, result: Measured, note: string }} CeilingRow
 */

const fixed = (value, digits) => (value === undefined || value === null || Number.isNaN(value) ? "n/a" : value.toFixed(digits))
const ratio = (a, b) => (a === undefined || a === null || b === undefined || b === null || b === 0 ? "n/a" : `${(a / b).toFixed(2)}x`)

/** Left-aligned columns, as wide as their widest cell. */
const printTable = (head, body) => {
  const widths = head.map((title, column) => Math.max(title.length, ...body.map((row) => row[column].length)))
  for (const row of [head, ...body]) console.log(row.map((cell, column) => cell.padEnd(widths[column])).join("  ").trimEnd())
}

/** @param {HttpRow[]} rows */
export const printHttpTable = (rows) => {
  printTable(
    ["HTTP row", "req/s", "p50 ms", "p99 ms", "non-2xx", "errors", "requests", "idle RSS MiB", "peak RSS MiB"],
    rows.map(({ label, result: r }) => [
      label, fixed(r.rps, 1), fixed(r.p50Ms, 2), fixed(r.p99Ms, 2), String(r.non2xx), String(r.errors), String(r.requests),
      fixed(r.idleRssMiB, 1), fixed(r.peakRssMiB, 1)
    ])
  )
}

/** @param {CeilingRow[]} rows */
export const printCeilingTable = (rows) => {
  printTable(
    ["durable-commit ceiling", "commits/s", "p50 ms", "p99 ms", "errors", "commits", "peak RSS MiB", "settings"],
    rows.map(({ label, result: r, note }) => [
      label, fixed(r.rps, 1), fixed(r.p50Ms, 2), fixed(r.p99Ms, 2), String(r.errors), String(r.requests), fixed(r.peakRssMiB, 1), note
    ])
  )
}

/**
 * Each kit row against the twin row of the same route. The twin runs on SQLite only, so the
 * PostgreSQL rows are against that same twin: a comparison of stacks, not of stores.
 * @param {HttpRow[]} rows
 */
export const printKitVersusTwin = (rows) => {
  const twins = new Map(rows.filter((row) => row.group === "twin").map((row) => [row.route, row.result]))
  const kits = rows.filter((row) => row.group === "kit")
  printTable(
    ["kit route (store)", "twin req/s", "kit req/s", "kit / twin", "twin p99 ms", "kit p99 ms", "kit p99 / twin p99", "twin peak RSS", "kit peak RSS"],
    kits.map(({ route, store, result: kit }) => {
      const twin = twins.get(route)
      return [
        `${route} (${store})`, fixed(twin?.rps, 1), fixed(kit.rps, 1), ratio(kit.rps, twin?.rps),
        fixed(twin?.p99Ms, 2), fixed(kit.p99Ms, 2), ratio(kit.p99Ms, twin?.p99Ms), fixed(twin?.peakRssMiB, 1), fixed(kit.peakRssMiB, 1)
      ]
    })
  )
}

/**
 * The floors against each other, and each initiate row against the commit ceiling of its store.
 * @param {HttpRow[]} rows
 * @param {CeilingRow[]} ceilings
 */
export const printContext = (rows, ceilings) => {
  const floor = (label) => rows.find((row) => row.label === label)?.result.rps
  const bare = floor("bare node:http hello")
  console.log(`Express 5 hello / bare node:http hello: ${ratio(floor("Express 5 hello"), bare)}; ` +
    `@effect/platform hello / bare node:http hello: ${ratio(floor("@effect/platform hello"), bare)}; ` +
    `@effect/platform hello / Express 5 hello: ${ratio(floor("@effect/platform hello"), floor("Express 5 hello"))}`)
  const ceiling = (store) => ceilings.find((row) => row.label.startsWith(store))?.result.rps
  for (const row of rows.filter((r) => r.route === "initiate-payment")) {
    // A variant of a store ("SQLite, metrics off") writes to that store's disk.
    const store = row.group === "twin" ? "SQLite" : (row.store ?? "SQLite").split(",")[0]
    console.log(`${row.label} / ${store} one-row commit ceiling: ${ratio(row.result.rps, ceiling(store))}`)
  }
}

/** A loud note for every row whose answers were not all 2xx: its req/s counts failures too. */
export const printFailures = (rows) => {
  for (const { label, result: r } of rows) {
    if (r.non2xx > 0 || r.errors > 0) {
      console.log(`\n!!!!! WARNING: ${label} had ${r.non2xx} non-2xx responses and ${r.errors} socket errors/timeouts.`)
      console.log("!!!!! Its req/s counts failures too, so its numbers above are NOT a valid measurement.")
    }
  }
}

/**
 * The subscription scheduler at two table sizes (scheduler-scale.mjs): time per processed
 * subscription, wall and this process's CPU, after the first tick, and how flat it stays.
 * @param {Array<{ rows: number, due: number, ticks: number, processed: number, failed: number, wallMsPerSubscription: number, cpuMsPerSubscription: number }>} rows
 */
export const printSchedulerTable = (rows) => {
  printTable(
    ["scheduler (PostgreSQL)", "due", "ticks of 1,000", "processed", "failed", "wall ms per subscription", "CPU ms per subscription"],
    rows.map((row) => [
      `${row.rows.toLocaleString("en")} subscriptions`, String(row.due), String(row.ticks), String(row.processed), String(row.failed),
      fixed(row.wallMsPerSubscription, 3), fixed(row.cpuMsPerSubscription, 3)
    ])
  )
  const [small, large] = rows
  if (small !== undefined && large !== undefined) {
    console.log(`CPU per subscription ${large.rows.toLocaleString("en")} / ${small.rows.toLocaleString("en")} rows: ` +
      `${ratio(large.cpuMsPerSubscription, small.cpuMsPerSubscription)} (targets: <= 1 ms of CPU per subscription, flat)`)
  }
}
