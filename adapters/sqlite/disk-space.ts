import { statfs } from "node:fs/promises"
import { dirname, resolve } from "node:path"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { StoreDisk } from "../sql/store-health.js"

/**
 * Less room than this on the SQLite file's filesystem counts as full. A commit appends its pages to
 * the WAL and a checkpoint grows the file, so a disk with a few pages left refuses writes already;
 * a mebibyte is more than a full group commit needs, and nothing on a disk of any real size.
 */
export const FULL_BELOW_BYTES = 1024 * 1024

/** What this process may still write there: root may also use the blocks a filesystem reserves for it. */
const roomOf = (stats: { readonly bsize: number; readonly bavail: number; readonly bfree: number }): number =>
  stats.bsize * (process.getuid?.() === 0 ? stats.bfree : stats.bavail)

/**
 * Whether the disk under `filename` is full, read from the filesystem (one statfs) each time it is
 * asked, so it turns back by itself once space is freed. A store in memory has no disk; a filesystem
 * that cannot be asked counts as not full (the writes themselves then say so, as 503s).
 */
export const layer = (filename: string) =>
  Layer.succeed(StoreDisk, {
    full: filename === ":memory:" || filename.startsWith("file:")
      ? Effect.succeed(false)
      : Effect.tryPromise(() => statfs(dirname(resolve(filename)))).pipe(
        Effect.map((stats) => roomOf(stats) < FULL_BELOW_BYTES),
        Effect.orElseSucceed(() => false)
      )
  })
