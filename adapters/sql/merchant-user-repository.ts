import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { MerchantUserEmailTaken, type MerchantUser, USER_ROLES } from "../../core/merchant-users/merchant-user.js"
import { MerchantUserRepository, type PasswordLink } from "../../core/merchant-users/merchant-user-repository.js"
import { MerchantId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { int64, literal, nullable, safeInt, table, text } from "./table.js"

const UserStatusWord = Schema.Literal("invited", "active", "disabled")

export const merchantUsersTable = table("merchant_users", {
  id: text,
  merchant_id: safeInt,
  email: text,
  role: literal(Schema.Literal(...USER_ROLES)),
  status: literal(UserStatusWord),
  password_hash: nullable(text),
  created_at: int64,
  last_sign_in_at: nullable(int64)
})

const toUser = (row: typeof merchantUsersTable.Row.Type): MerchantUser => ({
  id: row.id,
  merchantId: MerchantId(row.merchant_id),
  email: row.email,
  role: row.role,
  status: row.status,
  createdAt: Instant(row.created_at),
  lastSignInAt: row.last_sign_in_at === null ? null : Instant(row.last_sign_in_at)
})

const users = tableRows(merchantUsersTable, toUser)
const credentials = tableRows(merchantUsersTable, (row) => ({ user: toUser(row), passwordHash: row.password_hash }))

export const passwordLinksTable = table("password_links", { token_hash: text, user_id: text, expires_at: int64 })

const links = tableRows(passwordLinksTable, (row): PasswordLink => ({ tokenHash: row.token_hash, userId: row.user_id, expiresAt: Instant(row.expires_at) }))

export const layer = Layer.effect(
  MerchantUserRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return MerchantUserRepository.of({
      // The conflict target names the email alone: an id collision is a bug, not a taken email.
      create: (user) =>
        Effect.gen(function*() {
          const rows = yield* sql`INSERT INTO merchant_users ${
            sql.insert(merchantUsersTable.values({
              id: user.id,
              merchant_id: user.merchantId,
              email: user.email,
              role: user.role,
              status: "invited",
              password_hash: null,
              created_at: user.createdAt,
              last_sign_in_at: null
            }))
          } ON CONFLICT (email) DO NOTHING RETURNING *`
          if (rows.length === 0) return yield* new MerchantUserEmailTaken({ email: user.email })
          return yield* users.one(rows)
        }).pipe(dbCall),
      findById: (id) => sql`SELECT * FROM merchant_users WHERE id = ${id}`.pipe(Effect.flatMap(users.first), dbCall),
      findByEmail: (email) => sql`SELECT * FROM merchant_users WHERE email = ${email}`.pipe(Effect.flatMap(credentials.first), dbCall),
      // FOR UPDATE: a second transaction waits here, then reads the rows as the first left them.
      activeOwnerIds: (merchantId) =>
        sql.onDialectOrElse({
          pg: () => sql<{ readonly id: string }>`SELECT id FROM merchant_users WHERE merchant_id = ${merchantId} AND role = 'owner' AND status = 'active' ORDER BY id FOR UPDATE`,
          orElse: () => sql<{ readonly id: string }>`SELECT id FROM merchant_users WHERE merchant_id = ${merchantId} AND role = 'owner' AND status = 'active' ORDER BY id`
        }).pipe(Effect.map((rows) => rows.map((row) => row.id)), dbCall),
      listByMerchant: (merchantId) =>
        sql`SELECT * FROM merchant_users WHERE merchant_id = ${merchantId} ORDER BY created_at, id`.pipe(Effect.flatMap(users.all), dbCall),
      setDisabled: (id, disabled) => {
        const status = disabled ? sql`'disabled'` : sql`CASE WHEN password_hash IS NULL THEN 'invited' ELSE 'active' END`
        return sql`UPDATE merchant_users SET status = ${status} WHERE id = ${id} RETURNING *`.pipe(Effect.flatMap(users.first), dbCall)
      },
      setPassword: (id, passwordHash) =>
        sql`UPDATE merchant_users SET password_hash = ${passwordHash},
            status = CASE WHEN status = 'disabled' THEN 'disabled' ELSE 'active' END
            WHERE id = ${id} RETURNING *`.pipe(Effect.flatMap(users.first), dbCall),
      replacePasswordHash: (id, expected, passwordHash) =>
        sql`UPDATE merchant_users SET password_hash = ${passwordHash} WHERE id = ${id} AND password_hash = ${expected} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          dbCall
        ),
      recordSignIn: (id, at) => sql`UPDATE merchant_users SET last_sign_in_at = ${at} WHERE id = ${id}`.pipe(Effect.asVoid, dbCall),
      delete: (id) =>
        sql.withTransaction(Effect.gen(function*() {
          yield* sql`DELETE FROM password_links WHERE user_id = ${id}`
          yield* sql`DELETE FROM dashboard_sessions WHERE user_id = ${id}`
          const rows = yield* sql`DELETE FROM merchant_users WHERE id = ${id} RETURNING id`
          return rows.length > 0
        })).pipe(dbCall),
      createPasswordLink: (link) =>
        sql.withTransaction(Effect.zipRight(
          sql`DELETE FROM password_links WHERE user_id = ${link.userId}`,
          sql`INSERT INTO password_links ${sql.insert(passwordLinksTable.values({ token_hash: link.tokenHash, user_id: link.userId, expires_at: link.expiresAt }))}`
        )).pipe(Effect.asVoid, dbCall),
      findPasswordLink: (tokenHash) => sql`SELECT * FROM password_links WHERE token_hash = ${tokenHash}`.pipe(Effect.flatMap(links.first), dbCall),
      consumePasswordLink: (tokenHash) =>
        sql`DELETE FROM password_links WHERE token_hash = ${tokenHash} RETURNING *`.pipe(Effect.flatMap(links.first), dbCall),
      deleteExpiredLinks: (before) =>
        sql`DELETE FROM password_links WHERE expires_at < ${before} RETURNING token_hash`.pipe(Effect.map((rows) => rows.length), dbCall)
    })
  })
)
