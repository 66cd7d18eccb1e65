// What `npm run bench` prints: the HTTP rows, the durable-commit ceilings, and each kit row as a
// ratio to its hand-written twin. Numbers for a reader; nothing here decides an exit code.

/**
 * @typedef {import("./load.mjs").LoadResult & { idleRssMiB?: number, peakRssMiB?: number,
 *   cpuUsPerRequest?: number, allocBytesPerRequest?: number, probeProblem?: string, round?: number }} Measured
 *   one run; CPU and allocation from the server's own probe over the measured window (probe.mjs)
 * @typedef {{ label: string, group: "floor"|"twin"|"kit", route?: string, store?: string, runs: Measured[], result: Measured }} HttpRow
 *   `result` holds the medians of `runs` (and the sums of their requests and failures)
 * @typedef {{ label: string, result: Measured, note: string }} CeilingRow
 */

const fixed = (value, digits) => (value === undefined || value === null || Number.isNaN(value) ? "n/a" : value.toFixed(digits))
const ratio = (a, b) => (a === undefined || a === null || b === undefined || b === null || b === 0 ? "n/a" : `${(a / b).toFixed(2)}x`)
const grouped = (value, digits) =>
  value === undefined || value === null || Number.isNaN(value) ? "n/a" : value.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits })

/** Left-aligned columns, as wide as their widest cell. */
const printTable = (head, body) => {
  const widths = head.map((title, column) => Math.max(title.length, ...body.map((row) => row[column].length)))
  for (const row of [head, ...body]) console.log(row.map((cell, column) => cell.padEnd(widths[column])).join("  ").trimEnd())
}

const present = (values) => values.filter((value) => typeof value === "number" && !Number.isNaN(value))

/** The median of the numbers among `values` (the mean of the middle two for an even count), or undefined. */
export const median = (values) => {
  const sorted = present(values).sort((a, b) => a - b)
  if (sorted.length === 0) return undefined
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/**
 * One HTTP row from its runs: the median of each measure, the sums of requests and failures.
 * @param {Omit<HttpRow, "result">} row
 * @returns {HttpRow}
 */
export const summarise = (row) => {
  const of = (key) => median(row.runs.map((run) => run[key]))
  const sum = (key) => row.runs.reduce((total, run) => total + run[key], 0)
  return {
    ...row,
    result: {
      rps: of("rps"), p50Ms: of("p50Ms"), p99Ms: of("p99Ms"), cpuUsPerRequest: of("cpuUsPerRequest"), allocBytesPerRequest: of("allocBytesPerRequest"),
      idleRssMiB: of("idleRssMiB"), peakRssMiB: of("peakRssMiB"), requests: sum("requests"), non2xx: sum("non2xx"), errors: sum("errors")
    }
  }
}

/** "median (min-max)" of one measure over a row's runs; just the value for a single run. */
const spread = (runs, key, digits, scale = 1) => {
  const values = present(runs.map((run) => run[key])).map((value) => value * scale)
  if (values.length === 0) return "n/a"
  if (values.length === 1) return grouped(values[0], digits)
  return `${grouped(median(values), digits)} (${grouped(Math.min(...values), digits)}-${grouped(Math.max(...values), digits)})`
}

/** A row with a failed request, or a run that got no answer at all in its measured window. */
const failedRow = (runs) => runs.some((run) => run.non2xx > 0 || run.errors > 0 || run.requests === 0)

/** @param {HttpRow[]} rows */
export const printHttpTable = (rows) => {
  printTable(
    ["HTTP row", "runs", "req/s", "p50 ms", "p99 ms", "CPU us/req", "alloc KiB/req", "peak RSS MiB", "idle RSS MiB", "non-2xx", "errors"],
    rows.map(({ label, runs, result: r }) => [
      `${label}${failedRow(runs) ? " !!" : ""}`, String(runs.length), spread(runs, "rps", 0), fixed(r.p50Ms, 2), spread(runs, "p99Ms", 2),
      spread(runs, "cpuUsPerRequest", 0), spread(runs, "allocBytesPerRequest", 1, 1 / 1024), spread(runs, "peakRssMiB", 0),
      fixed(r.idleRssMiB, 0), String(r.non2xx), String(r.errors)
    ])
  )
  console.log("each cell: median of the row's runs (min-max); CPU and allocation are the server's own, over the measured window; " +
    "!! marks a row with failed requests (see the warnings at the end)")
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
 * Each kit row against the twin row of the same route, medians against medians. The twin runs on
 * SQLite only, so the PostgreSQL rows are against that same twin: a comparison of stacks, not of
 * stores. Kit and twin runs of one round ran back to back, so the per-round throughput ratios show
 * how far one pair can stray from the median.
 * @param {HttpRow[]} rows
 */
export const printKitVersusTwin = (rows) => {
  const twins = new Map(rows.filter((row) => row.group === "twin").map((row) => [row.route, row]))
  const kits = rows.filter((row) => row.group === "kit")
  printTable(
    ["kit route (store)", "twin req/s", "kit req/s", "req/s kit/twin", "per round", "CPU/req kit/twin", "p99 kit/twin", "alloc/req kit/twin",
      "twin alloc KiB/req", "kit alloc KiB/req", "kit peak RSS MiB"],
    kits.map(({ route, store, runs, result: kit }) => {
      const twin = twins.get(route)
      const paired = runs.flatMap((run) => {
        const other = twin?.runs.find((candidate) => candidate.round === run.round)
        return other === undefined || other.rps === 0 ? [] : [run.rps / other.rps]
      })
      return [
        `${route} (${store})`, grouped(twin?.result.rps, 0), grouped(kit.rps, 0), ratio(kit.rps, twin?.result.rps),
        paired.length === 0 ? "n/a" : `${Math.min(...paired).toFixed(2)}-${Math.max(...paired).toFixed(2)}x`,
        ratio(kit.cpuUsPerRequest, twin?.result.cpuUsPerRequest), ratio(kit.p99Ms, twin?.result.p99Ms),
        ratio(kit.allocBytesPerRequest, twin?.result.allocBytesPerRequest),
        fixed((twin?.result.allocBytesPerRequest ?? NaN) / 1024, 1), fixed((kit.allocBytesPerRequest ?? NaN) / 1024, 1), fixed(kit.peakRssMiB, 0)
      ]
    })
  )
  console.log("targets: req/s >= 1.0x, CPU/req <= 1.0x, p99 <= 1.0x, alloc/req <= 2.0x the twin's; peak RSS <= 200 MiB")
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
  for (const { label, result: r, runs } of rows) {
    if (r.non2xx > 0 || r.errors > 0) {
      console.log(`\n!!!!! WARNING: ${label} had ${r.non2xx} non-2xx responses and ${r.errors} socket errors/timeouts.`)
      console.log("!!!!! Its req/s counts failures too, so its numbers above are NOT a valid measurement.")
    }
    const silent = (runs ?? []).filter((run) => run.requests === 0).length
    if (silent > 0) console.log(`\n!!!!! WARNING: ${label}: ${silent} run(s) got no answer at all within the measured window; its medians are NOT valid.`)
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
