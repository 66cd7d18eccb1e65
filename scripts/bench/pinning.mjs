// One core each for server and load generator, as the design's reference numbers were taken: when
// both float over both cores, they steal from each other unevenly and the ratio swings run to run.
import { spawnSync } from "node:child_process"
import { availableParallelism } from "node:os"

const hasTaskset = spawnSync("which", ["taskset"], { encoding: "utf8" }).status === 0

/** The CPUs this process may use, read before it pins itself to one. */
export const cpuCount = availableParallelism()

/** Whether runs are pinned (taskset present and at least two CPUs). */
export const pinned = hasTaskset && cpuCount >= 2

/** The command prefix that runs a server on CPU 0, or nothing when not pinned. */
export const serverPrefix = pinned ? ["taskset", "-c", "0"] : []

/** The command prefix that runs a load generator (or database client) on CPU 1, or nothing when not pinned. */
export const loadPrefix = pinned ? ["taskset", "-c", "1"] : []

// Read before this process pins itself: what "unpinned" means for the children that should float.
const allowedList = hasTaskset
  ? (spawnSync("taskset", ["-c", "-p", String(process.pid)], { encoding: "utf8" }).stdout.match(/:\s*([0-9,-]+)\s*$/)?.[1] ?? "")
  : ""

/**
 * The command prefix that lets a child float over every CPU this process was started with. A child
 * inherits its parent's affinity, and this process pins itself to the load core, so a child meant to
 * float (the noisy neighbour) must be set free explicitly.
 */
export const unpinnedPrefix = pinned && allowedList !== "" ? ["taskset", "-c", allowedList] : []

/** Moves this process (it only starts, samples and stops the others) off the server's CPU. */
export const pinThisProcessToLoadCore = () => {
  if (pinned) spawnSync("taskset", ["-p", "-c", "1", String(process.pid)], { stdio: "ignore" })
}

export const describePinning = () =>
  pinned ? "server pinned to CPU 0, load generator to CPU 1" : "not pinned (no taskset or a single CPU): server and load share the CPUs"
