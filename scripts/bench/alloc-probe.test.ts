// The bench's allocation counter (probe.mjs) must read a known allocation right, or "bytes allocated
// per request" means nothing. A fresh node, the probe preloaded as the bench preloads it, signalled
// the way the bench signals it, around 100,000 arrays of 128 holes: each is a 32-byte JSArray plus a
// 16-byte-header FixedArray of 128 eight-byte slots (64-bit V8 without pointer compression, as Node
// ships), 1,072 bytes, about 107 MB in all: many scavenges, so the GC accounting is exercised too.
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"

const PROBE = join(import.meta.dirname, "probe.mjs")
const COUNT = 100_000
const BYTES_EACH = 32 + 16 + 128 * 8

// Signals itself, allocates, signals again; each signal's line is written on the next turn of the loop.
// The arrays escape into a global, or the optimising compiler would drop the allocation altogether.
const script = `
const tick = () => new Promise((resolve) => setTimeout(resolve, 50))
process.kill(process.pid, "SIGUSR2")
await tick()
for (let i = 0; i < ${COUNT}; i += 1) globalThis.sink = new Array(128)
process.kill(process.pid, "SIGUSR2")
await tick()
`

let dir: string | undefined
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

describe("the bench's allocation and CPU probe", () => {
  it("reads a known allocation to within 10% and the CPU it took", () => {
    dir = mkdtempSync(join(tmpdir(), "alloc-probe-"))
    const file = join(dir, "probe.jsonl")
    const run = spawnSync(process.execPath, ["--import", PROBE, "--input-type=module", "-e", script], {
      env: { ...process.env, BENCH_PROBE_FILE: file },
      encoding: "utf8"
    })
    expect(run.stderr).toBe("")
    expect(run.status).toBe(0)
    const [first, second] = readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line))
    const allocated = second.allocatedBytes - first.allocatedBytes
    const expected = COUNT * BYTES_EACH
    expect(Math.abs(allocated - expected) / expected).toBeLessThan(0.1)
    expect(second.cpuUserUs + second.cpuSystemUs).toBeGreaterThan(first.cpuUserUs + first.cpuSystemUs)
  })
})
