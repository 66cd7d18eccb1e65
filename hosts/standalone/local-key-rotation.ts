import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs"
import { dirname, join } from "node:path"
import * as Either from "effect/Either"
import { generateMasterKey, parseMasterKey } from "../../core/signing/secret-box.js"
import type { RotationKeys } from "../../core/signing/reseal.js"
import { HostFailure } from "../embedding/host-config.js"
import { LOCAL_KEY_FILES } from "../embedding/local-secrets.js"

/**
 * The key files of a SQLite quickstart (no MASTER_KEY) through a rotation. The order keeps every
 * key the store may be sealed under on disk at every moment, a crash included:
 *
 * 1. `prepare`: the new key is written to master.key.next (and synced) before the store changes;
 *    a rerun after a crash reuses it rather than inventing another.
 * 2. the store is re-sealed under it in one transaction (by the caller).
 * 3. `finish`: the old key replaces master.key.previous, then master.key.next becomes master.key,
 *    each by an atomic rename. Hosts refuse to start while master.key.next exists, so a stop
 *    between 2 and 3 is finished by running the command again, never served half rotated.
 */
export interface LocalKeyRotation {
  readonly keys: RotationKeys
  readonly directory: string
  readonly finish: () => void
}

const readKey = (path: string): Uint8Array =>
  Either.getOrElse(parseMasterKey(readFileSync(path, "utf8")), () => {
    throw new HostFailure(`${path} does not hold a master key (64 hex digits): restore it from a backup before rotating`)
  })

/** Writes `text` to a new file and syncs it and its folder, so it survives a power cut. */
const writeDurably = (path: string, text: string, flag: "wx" | "w") => {
  const file = openSync(path, flag, 0o600)
  try {
    writeSync(file, text)
    fsyncSync(file)
  } finally {
    closeSync(file)
  }
  syncFolder(dirname(path))
}

const syncFolder = (folder: string) => {
  const handle = openSync(folder, "r")
  try {
    fsyncSync(handle)
  } finally {
    closeSync(handle)
  }
}

export const prepareLocalKeyRotation = (directory: string): LocalKeyRotation => {
  const current = join(directory, LOCAL_KEY_FILES.current)
  const next = join(directory, LOCAL_KEY_FILES.next)
  const previous = join(directory, LOCAL_KEY_FILES.previous)
  if (!existsSync(current)) {
    throw new HostFailure(`no master key in ${directory} (${LOCAL_KEY_FILES.current}): nothing was sealed under a kept key there; set DATA_DIR, or MASTER_KEY and MASTER_KEY_PREVIOUS`)
  }
  if (!existsSync(next)) writeDurably(next, `${generateMasterKey()}\n`, "wx")
  const keys: RotationKeys = { next: readKey(next), previous: readKey(current) }
  return {
    keys,
    directory,
    finish: () => {
      const staged = `${previous}.partial`
      writeDurably(staged, readFileSync(current, "utf8"), "w")
      renameSync(staged, previous)
      renameSync(next, current)
      syncFolder(directory)
    }
  }
}
