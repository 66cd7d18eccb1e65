import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { resealStore, type ResealReport } from "../../adapters/sql/master-key-rotation.js"
import type { RotationKeys } from "../../core/signing/reseal.js"
import { type HostConfig, HostFailure } from "../embedding/host-config.js"
import { resolveMasterKeys, secretsDirectory } from "../embedding/local-secrets.js"
import { prepareLocalKeyRotation } from "./local-key-rotation.js"

const sameKey = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b))

/** MASTER_KEY is the new key and MASTER_KEY_PREVIOUS the one the store is sealed under now. */
const keysFromSettings = (config: HostConfig): RotationKeys => {
  if (config.masterKey === undefined || config.previousMasterKey === undefined) {
    const missing = [config.masterKey === undefined ? "MASTER_KEY" : [], config.previousMasterKey === undefined ? "MASTER_KEY_PREVIOUS" : []].flat()
    throw new HostFailure(`rotate-master-key needs ${missing.join(" and ")}: MASTER_KEY is the new key, MASTER_KEY_PREVIOUS the key the store is sealed under now`)
  }
  const keys = resolveMasterKeys(config)
  if (keys.previousMasterKey === undefined) throw new HostFailure("MASTER_KEY_PREVIOUS could not be read")
  if (sameKey(keys.masterKey, keys.previousMasterKey)) {
    throw new HostFailure("MASTER_KEY_PREVIOUS is the same key as MASTER_KEY: set MASTER_KEY to the new key")
  }
  return { next: keys.masterKey, previous: keys.previousMasterKey }
}

/** The driver of the store in use, loaded when the command runs: main.ts imports this file for every command. */
const storeClient = (config: HostConfig): Layer.Layer<SqlClient.SqlClient, unknown> => {
  const store = config.store
  switch (store.kind) {
    case "sqlite":
      return Layer.unwrapEffect(Effect.map(Effect.promise(() => import("../../adapters/sqlite/sqlite-storage.js")), (SqliteStorage) =>
        SqliteStorage.clientLayer({ filename: store.filename })))
    case "postgres":
      return Layer.unwrapEffect(Effect.map(Effect.promise(() => import("../../adapters/postgres/postgres-storage.js")), (PostgresStorage) =>
        PostgresStorage.clientLayer({ url: store.url, poolSize: 2 })))
    case "sql-client":
      return store.client
  }
}

const reseal = (config: HostConfig, keys: RotationKeys): Effect.Effect<ResealReport, unknown> =>
  resealStore(keys).pipe(
    Effect.catchTags({
      SealedValueUnreadable: (error) => Effect.fail(new HostFailure(`${error.message}: nothing was re-sealed`)),
      SealedValueChanged: (error) => Effect.fail(new HostFailure(error.message))
    }),
    Effect.provide(storeClient(config))
  )

const counted = (report: ResealReport) =>
  `re-sealed ${report.resealed} secrets under the new master key` +
  (report.alreadyCurrent > 0 ? ` (${report.alreadyCurrent} already were)` : "")

/**
 * `rotate-master-key`: every sealed value in the store under the new key, in one transaction.
 * With MASTER_KEY set, the keys come from the settings hosts read; with SQLite and no MASTER_KEY,
 * the command makes the new key itself and keeps both in DATA_DIR (local-key-rotation.ts).
 * Nothing it prints holds a key or a secret.
 */
export const rotateMasterKey = (config: HostConfig): Effect.Effect<void, unknown> =>
  Effect.suspend(() => {
    const directory = secretsDirectory(config)
    if (config.masterKey !== undefined || directory === undefined) {
      const keys = keysFromSettings(config)
      return reseal(config, keys).pipe(Effect.flatMap((report) => Effect.sync(() => console.log(
        `${counted(report)}; hosts may now run with MASTER_KEY alone once checkout links issued before have expired (MASTER_KEY_PREVIOUS opens them until then)`
      ))))
    }
    if (config.previousMasterKey !== undefined) {
      throw new HostFailure("MASTER_KEY_PREVIOUS is read with MASTER_KEY: with the key kept in DATA_DIR, rotate-master-key makes the new key itself (unset MASTER_KEY_PREVIOUS, or set both)")
    }
    const local = prepareLocalKeyRotation(directory)
    return reseal(config, local.keys).pipe(Effect.flatMap((report) => Effect.sync(() => {
      local.finish()
      console.log(`${counted(report)}; ${local.directory}/master.key holds the new key and master.key.previous the old one: restart the host`)
    })))
  })
