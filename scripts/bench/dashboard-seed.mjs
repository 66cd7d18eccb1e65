// The bulk seed of the dashboard-scale bench: a year of one merchant's payments written straight into
// a store the host has migrated, in SQL that generates the rows itself (a recursive CTE on SQLite,
// generate_series on PostgreSQL), so a million rows take seconds rather than a million round trips.
// Realistic enough for the pages' queries: mixed statuses (success, failed, pending whose checkout
// expired, a few still open), amounts spread over two orders of magnitude, a refund of half of every
// twentieth payment, the wallet's ledger (a credit per payment, a debit per refund, the running
// balance) that the statement reads, and other merchants' payments so filtering by merchant matters.

export const DAY_MICROS = 86_400_000_000n
const CENT_ATOMS = 1_000_000n // amounts are held in atoms, 10^8 per unit (ATOMS_PER_UNIT)

/** The two dialects' differences this seed meets: the numbers source and zero padding. */
const dialects = {
  sqlite: {
    numbers: (count) => `WITH RECURSIVE g(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM g WHERE i < ${count - 1})`,
    from: "g",
    pad: (expr, width) => `printf('%0${width}d', ${expr})`
  },
  postgres: {
    numbers: () => "",
    from: (count) => `generate_series(CAST(0 AS BIGINT), ${count - 1}) AS g(i)`,
    pad: (expr, width) => `lpad(CAST(${expr} AS TEXT), ${width}, '0')`
  }
}

/**
 * The statements that seed `count` payments of `merchantId` (ids from `firstId`), with their refunds
 * and, when `walletId` is given, its ledger and balance. `now` in micros; created_at spans the year before it.
 */
export const seedStatements = ({ dialect, merchantId, walletId, count, firstId, now, environment = "sandbox" }) => {
  const d = dialects[dialect]
  const from = typeof d.from === "function" ? d.from(count) : d.from
  const start = now - 365n * DAY_MICROS
  const step = (365n * DAY_MICROS) / BigInt(count)
  const n = `(i + ${firstId})`
  const trx = (expr) => `'${environment === "sandbox" ? "SANDBOX_" : "PRODUCTION_"}' || ${d.pad(expr, 26)}`
  const created = `(${start} + i * ${step})`
  // 93 in 100 succeed, 4 fail, 3 stay pending: their checkout expired an hour on, but for the newest.
  const status = `CASE WHEN i % 100 < 93 THEN 'success' WHEN i % 100 < 97 THEN 'failed' ELSE 'pending' END`
  const amount = `((1000 + (i * 7919) % 90000) * ${CENT_ATOMS})`
  const refunded = `CASE WHEN i % 20 = 1 THEN ${amount} / 2 ELSE 0 END`
  const payments = `${d.numbers(count)}
    INSERT INTO payments (trx_id, merchant_id, environment, ref_trx, amount, currency, status, failure_reason, fee, net, refunded_amount,
      description, customer_name, customer_email, ipn_url, success_redirect, cancel_redirect, allow_payment_methods, gateway_ids,
      gateway_id, invoice_id, expires_at, completed_at, created_at, updated_at)
    SELECT ${trx(n)}, ${merchantId}, '${environment}', 'order-' || ${d.pad(n, 8)}, ${amount}, 'USD', ${status},
      CASE WHEN i % 100 BETWEEN 93 AND 96 THEN 'declined' ELSE NULL END, 0, ${amount}, ${refunded},
      'Order ' || ${n}, 'Customer ' || (i % 5000), 'customer' || (i % 5000) || '@shop.example', 'https://shop.example/ipn',
      'https://shop.example/ok', 'https://shop.example/cancel', '[]', '[]', NULL, NULL,
      ${created} + 3600000000, CASE WHEN i % 100 < 97 THEN ${created} + 30000000 ELSE NULL END, ${created}, ${created} + 30000000
    FROM ${from}`
  const refunds = `${d.numbers(count)}
    INSERT INTO refunds (refund_trx_id, payment_trx_id, merchant_id, environment, amount, currency, reason, ref_refund, total_refunded,
      remaining_refund, created_at)
    SELECT ${trx(`${n} + 900000000`)}, ${trx(n)}, ${merchantId}, '${environment}', ${amount} / 2, 'USD', 'Returned', NULL,
      ${amount} / 2, ${amount} - ${amount} / 2, ${created} + 3600000000
    FROM ${from} WHERE i % 20 = 1`
  if (walletId === undefined) return [payments, refunds]
  // Oldest first, so ids follow the balance as it moved; balance_after is the running sum.
  const ledger = `INSERT INTO ledger_entries (wallet_id, kind, delta, balance_after, reference, memo, created_at)
    SELECT ${walletId}, kind, delta, SUM(delta) OVER (ORDER BY created_at, kind ROWS UNBOUNDED PRECEDING), reference, memo, created_at FROM (
      SELECT 'payment_credit' AS kind, amount AS delta, trx_id AS reference, NULL AS memo, completed_at AS created_at
        FROM payments WHERE merchant_id = ${merchantId} AND environment = '${environment}' AND status = 'success'
      UNION ALL
      SELECT 'refund_debit', -amount, refund_trx_id, reason, created_at FROM refunds WHERE merchant_id = ${merchantId} AND environment = '${environment}'
    ) AS moves ORDER BY created_at, kind`
  const balance = `UPDATE wallets SET balance = (SELECT COALESCE(SUM(delta), 0) FROM ledger_entries WHERE wallet_id = ${walletId}) WHERE id = ${walletId}`
  return [payments, refunds, ledger, balance]
}
