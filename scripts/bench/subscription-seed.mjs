// The subscriptions a live table holds, seeded straight into PostgreSQL for the scheduler benches
// (scheduler-scale.mjs, scale-out.mjs): multi-row INSERTs, so statistics see them as they would.

export const DAY_MICROS = 86_400_000_000n

/**
 * `total` subscriptions, the first `due` of them due (their daily period ended 1..due seconds ago), the
 * rest as a live table holds them: three in four active inside their period (due within the day),
 * the others past_due or cancelled (no next billing). The scheduler waits on wake_at, which is the
 * next billing here (no trial, pause, dunning or charge pending). Each has its paid first invoice, its payment
 * and that invoice's delivered webhook (without one, statistics taken before the run see an empty
 * outbox, and PostgreSQL plans the per-object sequence lookup on the merchant's whole events index).
 * `tag` keeps the ids and references of one seeding apart from another's in the same database.
 */
export const seedSubscriptions = (client, { merchantId, gatewayId, total, due, nowMicros, tag = "" }) => {
  const params = [merchantId, gatewayId, String(nowMicros), String(DAY_MICROS), due, total, tag]
  // $3 now, $4 a day; per row: anchor (the paid period's start) and status.
  const rows = `SELECT i,
      CASE WHEN i <= $5 THEN $3::bigint - $4::bigint - i * 1000000
           ELSE $3::bigint - ((i * 7919) % 86000 + 1) * 1000000 END AS anchor,
      CASE WHEN i <= $5 OR i % 4 <> 0 THEN 'active' WHEN i % 8 = 0 THEN 'cancelled' ELSE 'past_due' END AS status,
      md5($7::text || 's' || i)::uuid::text AS sid, md5($7::text || 'i' || i)::uuid::text AS iid, 'SANDBOX_BENCH' || $7::text || lpad(i::text, 13, '0') AS trx
    FROM generate_series(1::bigint, $6::bigint) AS i`
  return client.query(`WITH r AS (${rows}),
    s AS (INSERT INTO subscriptions (id, merchant_id, environment, external_reference, status, billing_cycle, amount, currency,
        customer_email, customer_name, description, success_redirect, cancel_redirect, ipn_url, allow_payment_methods, metadata,
        starts_at, current_period_start, current_period_end, next_billing_at, wake_at, cancel_at_period_end, cancelled_at, created_at, updated_at)
      SELECT sid, $1::bigint, 'sandbox', 'bench-' || $7::text || i, status, 'daily', 1000000000, 'USD', 'payer' || i || '@example.com', NULL, NULL,
        'https://shop.example/ok', 'https://shop.example/cancel', 'https://shop.example/ipn', '[]', '{}',
        anchor, anchor, anchor + $4::bigint, CASE WHEN status = 'active' THEN anchor + $4::bigint END,
        CASE WHEN status = 'active' THEN anchor + $4::bigint END, 0,
        CASE WHEN status = 'cancelled' THEN anchor END, anchor, anchor FROM r RETURNING 1),
    p AS (INSERT INTO payments (trx_id, merchant_id, environment, ref_trx, amount, currency, status, failure_reason, fee, net,
        refunded_amount, description, customer_name, customer_email, ipn_url, success_redirect, cancel_redirect,
        allow_payment_methods, gateway_ids, gateway_id, invoice_id, expires_at, completed_at, created_at, updated_at)
      SELECT trx, $1::bigint, 'sandbox', 'INV-' || iid, 1000000000, 'USD', 'success', NULL, 0, 1000000000, 0, NULL, NULL,
        'payer' || i || '@example.com', 'https://shop.example/ipn', 'https://shop.example/ok', 'https://shop.example/cancel',
        '[]', '[' || $2::bigint || ']', $2::bigint, iid, anchor + 3600000000, anchor, anchor, anchor FROM r RETURNING 1),
    f AS (INSERT INTO payment_references (merchant_id, environment, ref_trx, trx_id, held_until)
      SELECT $1::bigint, 'sandbox', 'INV-' || iid, trx, 9223372036854775807 FROM r RETURNING 1),
    w AS (INSERT INTO webhook_deliveries (id, merchant_id, environment, event, url, target, body, signing_secret, object_id,
        sequence, status, attempts, next_attempt_at, last_error, last_status_code, lease_owner, lease_until, created_at, updated_at)
      SELECT md5($7::text || 'w' || i)::uuid::text, $1::bigint, 'sandbox', 'invoice.paid', 'https://shop.example/ipn', 'https://shop.example',
        '{}', 'sealed', sid, 1, 'delivered', 1, NULL, NULL, 200, NULL, NULL, anchor, anchor FROM r RETURNING 1)
    INSERT INTO subscription_invoices (id, subscription_id, sequence, reference, status, amount, currency, trx_id,
        period_start, period_end, checkout_expires_at, paid_at, created_at, updated_at)
      SELECT iid, sid, 1, 'INV-' || iid, 'paid', 1000000000, 'USD', trx, anchor, anchor + $4::bigint, anchor + 3600000000,
        anchor, anchor, anchor FROM r`, params)
}
