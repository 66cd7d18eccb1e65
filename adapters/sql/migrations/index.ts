import * as Migrator from "@effect/sql/Migrator"
import { orStorageError } from "../storage-errors.js"
import initial from "./0001_initial.js"
import scheduler from "./0002_scheduler.js"
import gatewayPlugins from "./0003_gateway_plugins.js"

/** Migrations are compiled in (no file globbing), so the kit runs the same from source, dist or a bundle. */
export const migrations = {
  "0001_initial": initial,
  "0002_scheduler": scheduler,
  "0003_gateway_plugins": gatewayPlugins
}

const migrate = Migrator.make({})

/** Applies pending migrations; safe when several hosts start at once (PostgreSQL takes a table lock). */
export const runMigrations = orStorageError(
  migrate({ loader: Migrator.fromRecord(migrations), table: "mp_migrations" })
)
