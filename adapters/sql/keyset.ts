import type * as SqlClient from "@effect/sql/SqlClient"
import type { KeysetPosition } from "../../core/shared/keyset-page.js"

/**
 * The rows after a keyset position in a newest-first list ordered by (created_at, `idColumn`). The
 * leading `created_at <= ...` is the part an index on (..., created_at, id) can seek to: with the OR
 * alone, SQLite walks the list from its newest row to the position (half a million rows half-way
 * down a million-payment list) and PostgreSQL may too. The OR then drops the position's own
 * created_at ties up to and including it.
 */
export const keysetAfter = <Id extends string | number>(sql: SqlClient.SqlClient, idColumn: string, before: KeysetPosition<Id>) =>
  sql`created_at <= ${before.createdAt} AND (created_at < ${before.createdAt} OR ${sql(idColumn)} < ${before.id})`
