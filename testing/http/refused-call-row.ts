import Database from "better-sqlite3"

/**
 * A call refused for its signature, written to a kit's SQLite store as the request log's writer writes
 * one (adapters/sql/request-log-repository.ts's columns): the edge keeps a refused call only once it
 * can tell whose it is, and the Logs pages must show one whatever brought it there.
 */
export const REFUSED_CALL = {
  id: "rl_00000000000000000000000000000401",
  requestId: "req-refused-1",
  path: "/api/v1/refund-payment",
  canonical: "1900000000.POST./api/v1/refund-payment.<sha256 of the body>",
  cause: "The body signed is not the body sent",
  explanation: "Sign the exact bytes you send."
} as const

export const keepRefusedCall = (databaseFile: string, merchantId: number) => {
  const database = new Database(databaseFile)
  try {
    database.prepare(`INSERT INTO request_logs (id, merchant_id, environment, request_id, method, path, status, duration_ms, idempotency_key, error_code,
      error_message, request_body, response_body, signature_check, created_at) VALUES (?, ?, 'sandbox', ?, 'POST', ?, 401, 3, NULL,
      'INVALID_CREDENTIALS', 'Invalid signature', '{"trx_id":"SANDBOX_1"}', '{"success":false}', ?, ?)`).run(
      REFUSED_CALL.id, merchantId, REFUSED_CALL.requestId, REFUSED_CALL.path,
      JSON.stringify({ canonical: REFUSED_CALL.canonical, cause: REFUSED_CALL.cause, explanation: REFUSED_CALL.explanation }),
      // Now, in microseconds, as instants are kept.
      BigInt(Date.now()) * 1000n
    )
  } finally {
    database.close()
  }
}
