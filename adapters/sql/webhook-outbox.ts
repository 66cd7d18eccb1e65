import * as SqlClient from "@effect/sql/SqlClient"
import type * as Statement from "@effect/sql/Statement"
import * as Arr from "effect/Array"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Order from "effect/Order"
import * as Schema from "effect/Schema"
import { Environment } from "../../core/shared/environment.js"
import { MerchantId } from "../../core/shared/ids.js"
import { Instant, now, plusSeconds } from "../../core/shared/instant.js"
import type { StorageError } from "../../core/shared/storage-error.js"
import {
  type AttemptReport,
  type DeliveryAttempt,
  DeliveryStatus,
  type FailingTarget,
  type NewDelivery,
  SigningSecret,
  type WebhookDelivery
} from "../../core/webhooks/delivery.js"
import { deliveryTarget } from "../../core/webhooks/delivery-target.js"
import { type TargetOutcome, WebhookOutbox } from "../../core/webhooks/webhook-outbox.js"
import { SafeInt } from "./columns.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { int64, literal, nullable, safeInt, table, text, typed } from "./table.js"

export const webhookDeliveriesTable = table("webhook_deliveries", {
  id: text,
  merchant_id: safeInt,
  environment: literal(Environment),
  event: text,
  url: text,
  body: text,
  signing_secret: literal(SigningSecret),
  object_id: nullable(text),
  sequence: nullable(safeInt),
  status: literal(DeliveryStatus),
  attempts: typed(safeInt, "integer"),
  next_attempt_at: nullable(int64),
  last_error: nullable(text),
  last_status_code: nullable(typed(safeInt, "integer")),
  created_at: int64,
  updated_at: int64
})

export const webhookAttemptsTable = table("webhook_attempts", {
  delivery_id: text,
  attempt: typed(safeInt, "integer"),
  at: int64,
  status_code: nullable(typed(safeInt, "integer")),
  error: nullable(text),
  duration_ms: typed(safeInt, "integer")
})


const toDelivery = (row: typeof webhookDeliveriesTable.Row.Type): WebhookDelivery => ({
  id: row.id,
  merchantId: MerchantId(row.merchant_id),
  environment: row.environment,
  event: row.event,
  url: row.url,
  body: row.body,
  signingSecret: row.signing_secret,
  objectId: row.object_id,
  sequence: row.sequence,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: row.next_attempt_at === null ? null : Instant(row.next_attempt_at),
  lastError: row.last_error,
  lastStatusCode: row.last_status_code,
  createdAt: Instant(row.created_at),
  updatedAt: Instant(row.updated_at)
})

const toAttempt = (row: typeof webhookAttemptsTable.Row.Type): DeliveryAttempt => ({
  deliveryId: row.delivery_id,
  attempt: row.attempt,
  at: Instant(row.at),
  statusCode: row.status_code,
  error: row.error,
  durationMs: row.duration_ms
})

export const webhookTargetsTable = table("webhook_targets", {
  merchant_id: safeInt,
  environment: literal(Environment),
  target: text,
  failing_since: int64,
  paused_at: nullable(int64)
})

const failingTargetRows = tableRows(webhookTargetsTable, (row): FailingTarget => ({
  merchantId: MerchantId(row.merchant_id),
  environment: row.environment,
  target: row.target,
  failingSince: Instant(row.failing_since),
  pausedAt: row.paused_at === null ? null : Instant(row.paused_at)
}))

const deliveries = tableRows(webhookDeliveriesTable, toDelivery)
const attemptRows = tableRows(webhookAttemptsTable, toAttempt)

const PENDING: DeliveryStatus = "pending"

/** An arbitrary key of our own for PostgreSQL's advisory lock: "mp-claim" as a number. */
const CLAIM_LOCK = 0x6d70636c61696d

/** The order claimDue picks rows in: oldest due first, the id breaking ties. */
const dueOrder = Order.combine(
  Order.mapInput(Order.bigint, (d: WebhookDelivery) => d.nextAttemptAt ?? 0n),
  Order.mapInput(Order.string, (d: WebhookDelivery) => d.id)
)

export const layer = Layer.effect(
  WebhookOutbox,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    // The object's counter row is drawn by one upsert, which holds the row until the transaction
    // ends: a concurrent enqueue for the same object waits and draws the next number, however the
    // two transactions interleave and whatever the store's plan for reading the outbox. On
    // PostgreSQL the draw is a CTE of the INSERT (one round trip per event, as before the counter);
    // SQLite runs no DML in a CTE, and its draw is a statement in the same process, not a round trip.
    const enqueueOne = (delivery: NewDelivery) =>
      Effect.gen(function*() {
        const at = yield* now
        const columns = {
          id: delivery.id,
          merchant_id: delivery.merchantId,
          environment: delivery.environment,
          event: delivery.event,
          url: delivery.url,
          target: deliveryTarget(delivery.url),
          body: delivery.body,
          signing_secret: delivery.signingSecret,
          object_id: delivery.objectId,
          status: PENDING,
          attempts: 0,
          next_attempt_at: delivery.nextAttemptAt,
          last_error: null,
          last_status_code: null,
          lease_owner: null,
          lease_until: null,
          created_at: at,
          updated_at: at
        }
        const draw = sql`INSERT INTO webhook_sequences (merchant_id, environment, object_id, last_sequence)
          VALUES (${delivery.merchantId}, ${delivery.environment}, ${delivery.objectId}, 1)
          ON CONFLICT (merchant_id, environment, object_id)
          DO UPDATE SET last_sequence = webhook_sequences.last_sequence + 1
          RETURNING last_sequence`
        const insert = (sequence: Statement.Fragment) =>
          sql`INSERT INTO webhook_deliveries (${sql.literal([...Object.keys(columns), "sequence"].join(", "))})
            VALUES (${sql.join(", ", false)([...Object.values(columns).map((value) => sql`${value}`), sequence])}) RETURNING *`
        const rows = yield* sql.onDialectOrElse({
          pg: () => sql`WITH drawn AS (${draw}) ${insert(sql`(SELECT last_sequence FROM drawn)`)}`,
          orElse: () =>
            Effect.flatMap(draw, (drawn) =>
              Effect.flatMap(Schema.decodeUnknown(SafeInt)(drawn[0]?.["last_sequence"]), (sequence) => insert(sql`${sequence}`)))
        })
        return yield* deliveries.one(rows)
      }).pipe(dbCall)

    const enqueueOnPg = (batch: ReadonlyArray<NewDelivery>) =>
      Effect.gen(function*() {
        const at = yield* now
        const given = sql.join(", ", false)(batch.map((delivery, position) =>
          sql`(${position}::integer, ${delivery.id}::text, ${delivery.merchantId}::bigint, ${delivery.environment}::text,
            ${delivery.event}::text, ${delivery.url}::text, ${deliveryTarget(delivery.url)}::text, ${delivery.body}::text,
            ${delivery.signingSecret}::text, ${delivery.objectId}::text, ${delivery.nextAttemptAt}::bigint)`))
        const rows = yield* sql`WITH given (position, id, merchant_id, environment, event, url, target, body, signing_secret, object_id, next_attempt_at)
            AS (VALUES ${given}),
          objects AS (SELECT merchant_id, environment, object_id, COUNT(*) AS drawn, MIN(position) AS first
            FROM given GROUP BY merchant_id, environment, object_id),
          counters AS (INSERT INTO webhook_sequences (merchant_id, environment, object_id, last_sequence)
            SELECT merchant_id, environment, object_id, drawn FROM objects ORDER BY first
            ON CONFLICT (merchant_id, environment, object_id)
            DO UPDATE SET last_sequence = webhook_sequences.last_sequence + excluded.last_sequence
            RETURNING merchant_id, environment, object_id, last_sequence)
          INSERT INTO webhook_deliveries (id, merchant_id, environment, event, url, target, body, signing_secret, object_id,
              status, attempts, next_attempt_at, created_at, updated_at, sequence)
            SELECT g.id, g.merchant_id, g.environment, g.event, g.url, g.target, g.body, g.signing_secret, g.object_id,
              ${PENDING}::text, 0, g.next_attempt_at, ${at}::bigint, ${at}::bigint,
              c.last_sequence - o.drawn + ROW_NUMBER() OVER (PARTITION BY g.merchant_id, g.environment, g.object_id ORDER BY g.position)
            FROM given g
            JOIN objects o USING (merchant_id, environment, object_id)
            JOIN counters c USING (merchant_id, environment, object_id)
            ORDER BY g.position
          RETURNING *`
        const stored = yield* deliveries.all(rows)
        // RETURNING promises no order: answered in the order given.
        const byId = new Map(stored.map((delivery) => [delivery.id, delivery]))
        return batch.map((delivery) => byId.get(delivery.id)!)
      }).pipe(dbCall)

    // Atomic: an attempt row exists exactly when its delivery moved on. The lease owner guard means
    // a worker whose lease was taken over (or requeued) records nothing. History numbers continue
    // across redeliveries (a requeue restarts `attempts`, the per-run budget), so the log reads 1, 2,
    // 3, 4 and never repeats a number. A batch is two statements whatever its size: on PostgreSQL
    // one (the update and the insert as CTEs), on SQLite, which runs no DML in a CTE, a transaction
    // of two; the attempt rows are written first there, while the lease still names the worker.
    const recordAttempts = (reports: ReadonlyArray<AttemptReport>): Effect.Effect<ReadonlyArray<boolean>, StorageError> => {
      if (reports.length === 0) return Effect.succeed([])
      const given = sql`WITH given (id, worker, at, status, next_attempt_at, status_code, error, duration_ms) AS (VALUES ${
        sql.join(", ", false)(reports.map((report) =>
          sql`(CAST(${report.deliveryId} AS TEXT), CAST(${report.worker} AS TEXT), CAST(${report.at} AS BIGINT),
            CAST(${report.next.status} AS TEXT), CAST(${report.next.status === "pending" ? report.next.nextAttemptAt : null} AS BIGINT),
            CAST(${report.statusCode} AS INTEGER), CAST(${report.error} AS TEXT), CAST(${report.durationMs} AS INTEGER))`))
      })`
      const attemptRows = (moved: Statement.Fragment) =>
        sql`INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, error, duration_ms)
          SELECT g.id, (SELECT COUNT(*) + 1 FROM webhook_attempts a WHERE a.delivery_id = g.id), g.at, g.status_code, g.error, g.duration_ms
          FROM given g ${moved}`
      const move = sql`UPDATE webhook_deliveries
        SET attempts = webhook_deliveries.attempts + 1, status = g.status, next_attempt_at = g.next_attempt_at,
          last_error = g.error, last_status_code = g.status_code, lease_owner = NULL, lease_until = NULL, updated_at = g.at
        FROM given g
        WHERE webhook_deliveries.id = g.id AND webhook_deliveries.lease_owner = g.worker
        RETURNING webhook_deliveries.id`
      const moved = sql.onDialectOrElse({
        pg: () => sql<{ readonly id: string }>`${given}, moved AS (${move}),
          recorded AS (${attemptRows(sql`JOIN moved m ON m.id = g.id`)})
          SELECT id FROM moved`,
        orElse: () =>
          sql.withTransaction(Effect.zipRight(
            sql`${given} ${attemptRows(sql`JOIN webhook_deliveries d ON d.id = g.id AND d.lease_owner = g.worker`)}`,
            sql<{ readonly id: string }>`${given} ${move}`
          ))
      })
      return Effect.map(moved, (rows) => {
        const ids = new Set(rows.map((row) => row.id))
        return reports.map((report) => ids.has(report.deliveryId))
      }).pipe(dbCall)
    }

    // Read with a delivery `d`: whether its target is in the slow lane; and one target's notes by key.
    const slowNotedColumn = sql`EXISTS (SELECT 1 FROM webhook_slow_targets s WHERE s.target = d.target) AS noted_slow`
    const targetKey = (row: { readonly merchant_id: unknown; readonly environment: string; readonly target: string }) =>
      sql`merchant_id = ${row.merchant_id} AND environment = ${row.environment} AND target = ${row.target}`

    // What nearly every attempt notes, a quick success, is noted for a run of them at once: on
    // PostgreSQL one statement (its deletes run whether or not the query reads them); on SQLite a
    // read of whether any of their targets is noted slow or failing, and a write only for those
    // (each write outside a transaction is a durable commit of its own). The notes are advice for
    // later claims: a note another host adds between the read and the write is cleared by the next
    // quick attempt to that target.
    const noteQuickSuccesses = (deliveryIds: ReadonlyArray<string>) =>
      sql.onDialectOrElse({
        pg: () =>
          sql`WITH owner AS (SELECT DISTINCT merchant_id, environment, target FROM webhook_deliveries WHERE ${sql.in("id", deliveryIds)}),
              quick AS (DELETE FROM webhook_slow_targets s USING owner o WHERE s.target = o.target),
              healthy AS (
                DELETE FROM webhook_targets w USING owner o
                WHERE w.merchant_id = o.merchant_id AND w.environment = o.environment AND w.target = o.target
              )
              SELECT 1 AS noted`.pipe(Effect.asVoid),
        orElse: () =>
          Effect.gen(function*() {
            const noted = yield* sql<{ readonly merchant_id: unknown; readonly environment: string; readonly target: string; readonly noted_slow: unknown; readonly noted_failing: unknown }>`
              SELECT DISTINCT d.merchant_id, d.environment, d.target, ${slowNotedColumn},
                EXISTS (
                  SELECT 1 FROM webhook_targets w
                  WHERE w.merchant_id = d.merchant_id AND w.environment = d.environment AND w.target = d.target
                ) AS noted_failing
              FROM webhook_deliveries d WHERE ${sql.in("d.id", deliveryIds)}`
            for (const row of noted) {
              if (Boolean(Number(row.noted_slow))) yield* sql`DELETE FROM webhook_slow_targets WHERE target = ${row.target}`
              if (Boolean(Number(row.noted_failing))) {
                yield* sql`DELETE FROM webhook_targets WHERE ${targetKey(row)}`
              }
            }
          })
      })

    /** Any other outcome, rare: a failure, or a slow attempt. True when it paused the target. */
    const noteOther = ({ at, deliveryId, pauseAfterSeconds, slow, succeeded }: TargetOutcome) =>
      Effect.gen(function*() {
        const owner = yield* sql<{
          readonly merchant_id: unknown
          readonly environment: string
          readonly target: string
          readonly noted_slow: unknown
        }>`
          SELECT d.merchant_id, d.environment, d.target, ${slowNotedColumn}
          FROM webhook_deliveries d WHERE d.id = ${deliveryId}`
        const row = owner[0]
        if (row === undefined) return false
        const notedSlow = Boolean(Number(row.noted_slow))
        if (slow && !notedSlow) {
          yield* sql`INSERT INTO webhook_slow_targets ${sql.insert({ target: row.target, slow_since: at })} ON CONFLICT (target) DO NOTHING`
        }
        if (!slow && notedSlow) yield* sql`DELETE FROM webhook_slow_targets WHERE target = ${row.target}`
        const key = targetKey(row)
        if (succeeded) {
          yield* sql`DELETE FROM webhook_targets WHERE ${key}`
          return false
        }
        yield* sql`INSERT INTO webhook_targets ${
          sql.insert({ merchant_id: row.merchant_id as number, environment: row.environment, target: row.target, failing_since: at, paused_at: null })
        } ON CONFLICT (merchant_id, environment, target) DO NOTHING`
        if (pauseAfterSeconds === undefined) return false
        const paused = yield* sql`UPDATE webhook_targets SET paused_at = ${at}
          WHERE ${key} AND paused_at IS NULL AND failing_since <= ${plusSeconds(at, -pauseAfterSeconds)} RETURNING target`
        return paused.length > 0
      })

    /** In the order given: each run of quick successes at once, every other outcome on its own. */
    const noteTargetOutcomes = (outcomes: ReadonlyArray<TargetOutcome>): Effect.Effect<ReadonlyArray<boolean>, StorageError> =>
      Effect.gen(function*() {
        const paused: Array<boolean> = []
        let quick: Array<string> = []
        const flush = Effect.suspend(() => {
          const ids = quick
          quick = []
          return ids.length === 0 ? Effect.void : noteQuickSuccesses(ids)
        })
        for (const outcome of outcomes) {
          if (outcome.succeeded && !outcome.slow) {
            quick.push(outcome.deliveryId)
            paused.push(false)
          } else {
            yield* flush
            paused.push(yield* noteOther(outcome))
          }
        }
        yield* flush
        return paused
      }).pipe(dbCall)

    return WebhookOutbox.of({
      enqueue: (delivery) => enqueueOne(delivery),

      // Numbered as one enqueue after another would number them. On PostgreSQL one statement: each
      // object's counter is drawn once for all its rows (an upsert may not touch one row twice) and
      // its rows take the numbers in the order given; the counters are drawn in the order their
      // objects first appear, as the enqueues one by one would lock them. SQLite: one by one.
      enqueueAll: (batch) =>
        batch.length <= 1
          ? Effect.forEach(batch, (delivery) => enqueueOne(delivery))
          : sql.onDialectOrElse({
            pg: () => enqueueOnPg(batch),
            orElse: () => Effect.forEach(batch, (delivery) => enqueueOne(delivery))
          }),

      // One claim at a time across hosts (an advisory lock on PostgreSQL; SQLite has one writer),
      // so the in-flight counts the choice rests on cannot change under it. The lane's due rows are
      // ranked per target, oldest first, and those whose rank added to the target's live leases (every
      // worker's, every lane's) stays within perTarget pass; those are ranked again per merchant, and
      // those whose rank added to the merchant's live leases of this worker in this lane stays within
      // perMerchant are chosen, the oldest due first. Ranking the merchant's rows after the target cap
      // lets a merchant whose first target is saturated still send to its others.
      // No target can pass more than its oldest perTarget due rows, so only those are ranked: found
      // per target through the (status, target, next_attempt_at, id) index, one step from each
      // target to the next, the cost of a claim follows the targets waiting, not the rows, and a
      // backlog of a million rows costs what a backlog of a hundred does.
      claimDue: ({ lane, leaseNow, leaseUntil, limit, now: at, perMerchant, perTarget, worker }) =>
        limit <= 0 ? Effect.succeed([]) : sql.withTransaction(Effect.gen(function*() {
          yield* sql.onDialectOrElse({ pg: () => sql`SELECT pg_advisory_xact_lock(${CLAIM_LOCK})`, orElse: () => Effect.void })
          // Live leases are a handful of rows, read by the partial in-flight index. SQLite keeps no
          // statistics here and would rather walk every pending row (by status) or every row (by
          // merchant, for the grouping), a backlog's worth per claim: it is told the index.
          const leased = sql.onDialectOrElse({
            sqlite: () => sql`webhook_deliveries INDEXED BY webhook_deliveries_in_flight`,
            orElse: () => sql`webhook_deliveries`
          })
          const live = sql`lease_owner IS NOT NULL AND status = ${PENDING} AND lease_until > ${leaseNow}`
          const inLane = sql`${sql.literal(lane === "slow" ? "" : "NOT")} EXISTS (SELECT 1 FROM webhook_slow_targets s WHERE s.target = t.target)`
          const oldestDue = (columns: string) => sql`SELECT ${sql.literal(columns)} FROM webhook_deliveries e
            WHERE e.status = ${PENDING} AND e.target = t.target AND e.next_attempt_at IS NOT NULL AND e.next_attempt_at <= ${at}
              AND (e.lease_until IS NULL OR e.lease_until <= ${leaseNow})
              AND NOT EXISTS (
                SELECT 1 FROM webhook_targets p
                WHERE p.target = e.target AND p.merchant_id = e.merchant_id AND p.environment = e.environment
                  AND p.paused_at IS NOT NULL
              )
            ORDER BY e.next_attempt_at, e.id LIMIT ${perTarget}`
          // PostgreSQL reads each target's rows in a LATERAL subquery; SQLite, which has none, as a
          // correlated IN list driving lookups by id (both plans walk the index, never the backlog).
          const candidates = sql.onDialectOrElse({
            pg: () => sql`SELECT c.id, c.merchant_id, c.target, c.next_attempt_at FROM targets t CROSS JOIN LATERAL (${oldestDue("e.id, e.merchant_id, e.target, e.next_attempt_at")}) c
              WHERE t.target IS NOT NULL AND ${inLane}`,
            orElse: () => sql`SELECT c.id, c.merchant_id, c.target, c.next_attempt_at FROM targets t
              JOIN webhook_deliveries c ON c.id IN (${oldestDue("e.id")})
              WHERE t.target IS NOT NULL AND ${inLane}`
          })
          const chosen = yield* sql<{ readonly id: string }>`WITH RECURSIVE targets (target) AS (
              SELECT (SELECT target FROM webhook_deliveries WHERE status = ${PENDING} ORDER BY target LIMIT 1)
              UNION ALL
              SELECT (SELECT w.target FROM webhook_deliveries w WHERE w.status = ${PENDING} AND w.target > targets.target ORDER BY w.target LIMIT 1)
              FROM targets WHERE targets.target IS NOT NULL
            ), candidates AS (${candidates})
            SELECT id FROM (
              SELECT t.id, t.next_attempt_at,
                ROW_NUMBER() OVER (PARTITION BY t.merchant_id ORDER BY t.next_attempt_at, t.id) AS merchant_rank,
                COALESCE(mine.n, 0) AS merchant_in_flight
              FROM (
                SELECT d.id, d.merchant_id, d.next_attempt_at,
                  ROW_NUMBER() OVER (PARTITION BY d.target ORDER BY d.next_attempt_at, d.id) AS target_rank,
                  COALESCE(busy.n, 0) AS target_in_flight
                FROM candidates d
                LEFT JOIN (
                  SELECT target, COUNT(*) AS n FROM ${leased} WHERE ${live} GROUP BY target
                ) busy ON busy.target = d.target
              ) t
              LEFT JOIN (
                SELECT merchant_id, COUNT(*) AS n FROM ${leased}
                WHERE ${live} AND lease_owner = ${worker} AND lease_lane = ${lane}
                GROUP BY merchant_id
              ) mine ON mine.merchant_id = t.merchant_id
              WHERE t.target_rank + t.target_in_flight <= ${perTarget}
            ) ranked
            WHERE merchant_rank + merchant_in_flight <= ${perMerchant}
            ORDER BY next_attempt_at, id LIMIT ${limit}`
          if (chosen.length === 0) return []
          const rows = yield* sql`UPDATE webhook_deliveries
            SET ${sql.update({ lease_owner: worker, lease_until: leaseUntil, lease_lane: lane, updated_at: at })}
            WHERE ${sql.in("id", chosen.map((row) => row.id))} RETURNING *`
          // RETURNING order is unspecified; hand work out oldest-due first as it was chosen.
          return Arr.sort(yield* deliveries.all(rows), dueOrder)
        })).pipe(dbCall),

      recordAttempt: (report) => Effect.map(recordAttempts([report]), (recorded) => recorded[0] === true),
      recordAttempts,
      findById: (id) =>
        sql`SELECT * FROM webhook_deliveries WHERE id = ${id}`.pipe(Effect.flatMap(deliveries.first), dbCall),

      // Read from the (status, next_attempt_at) index; asked once per scrape, not per delivery.
      pendingCount: sql`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = ${PENDING}`.pipe(
        Effect.flatMap((rows) => Schema.decodeUnknown(SafeInt)(rows[0]?.["n"])),
        dbCall
      ),

      list: ({ limit, merchantId, status }) =>
        sql`SELECT * FROM webhook_deliveries WHERE ${
          sql.and([
            ...(merchantId !== undefined ? [sql`merchant_id = ${merchantId}`] : []),
            ...(status !== undefined ? [sql`status = ${status}`] : [])
          ])
        } ORDER BY created_at DESC, id DESC LIMIT ${limit}`.pipe(Effect.flatMap(deliveries.all), dbCall),

      attempts: (deliveryId) =>
        sql`SELECT * FROM webhook_attempts WHERE delivery_id = ${deliveryId} ORDER BY id`.pipe(
          Effect.flatMap(attemptRows.all),
          dbCall
        ),

      // Never while a worker holds a live lease: that attempt may be delivering right now, and
      // taking its lease would make it record nothing and the event go out twice.
      requeue: (id, at, leaseNow) =>
        sql`UPDATE webhook_deliveries SET ${
          sql.update({
            status: PENDING,
            attempts: 0,
            next_attempt_at: at,
            last_error: null,
            last_status_code: null,
            lease_owner: null,
            lease_until: null,
            updated_at: at
          })
        } WHERE id = ${id} AND (lease_owner IS NULL OR lease_until <= ${leaseNow})
          RETURNING *`.pipe(Effect.flatMap(deliveries.first), dbCall),

      noteTargetOutcome: (outcome) => Effect.map(noteTargetOutcomes([outcome]), (paused) => paused[0] === true),
      noteTargetOutcomes,

      failingTargets: ({ environment, merchantId }) =>
        sql`SELECT * FROM webhook_targets WHERE ${
          sql.and([
            ...(merchantId !== undefined ? [sql`merchant_id = ${merchantId}`] : []),
            ...(environment !== undefined ? [sql`environment = ${environment}`] : [])
          ])
        } ORDER BY failing_since, target`.pipe(Effect.flatMap(failingTargetRows.all), dbCall),

      failedCount: (merchantId, environment) =>
        sql`SELECT COUNT(*) AS n FROM webhook_deliveries
          WHERE merchant_id = ${merchantId} AND environment = ${environment} AND status = 'failed'`.pipe(
          Effect.flatMap((rows) => Schema.decodeUnknown(SafeInt)(rows[0]?.["n"])),
          dbCall
        ),

      resumeTargets: (merchantId, environment) =>
        sql`DELETE FROM webhook_targets WHERE merchant_id = ${merchantId} AND environment = ${environment} RETURNING paused_at`.pipe(
          Effect.map((rows) => rows.filter((row) => row["paused_at"] !== null).length),
          dbCall
        ),

      events: (query) =>
        sql`SELECT * FROM webhook_deliveries WHERE ${
          sql.and([
            sql`merchant_id = ${query.merchantId}`,
            sql`environment = ${query.environment}`,
            ...(query.type !== undefined ? [sql`event = ${query.type}`] : []),
            ...(query.objectId !== undefined ? [sql`object_id = ${query.objectId}`] : []),
            ...(query.since !== undefined ? [sql`created_at >= ${query.since}`] : []),
            ...(query.until !== undefined ? [sql`created_at < ${query.until}`] : []),
            ...(query.before !== undefined
              ? [sql`(created_at < ${query.before.createdAt} OR (created_at = ${query.before.createdAt} AND id < ${query.before.id}))`]
              : [])
          ])
        } ORDER BY created_at DESC, id DESC LIMIT ${query.limit}`.pipe(Effect.flatMap(deliveries.all), dbCall),

      // Failed rows hold no lease (recordAttempt released it), so no attempt can be in flight here.
      requeueFailed: (range) =>
        sql`UPDATE webhook_deliveries SET ${
          sql.update({
            status: PENDING,
            attempts: 0,
            next_attempt_at: range.now,
            last_error: null,
            last_status_code: null,
            updated_at: range.now
          })
        } WHERE ${
          sql.and([
            sql`merchant_id = ${range.merchantId}`,
            sql`environment = ${range.environment}`,
            sql`status = ${"failed"}`,
            sql`created_at >= ${range.since}`,
            ...(range.until !== undefined ? [sql`created_at < ${range.until}`] : [])
          ])
        } RETURNING id`.pipe(Effect.map((rows) => rows.length), dbCall)
    })
  })
)
