import Database from "better-sqlite3"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { childHostSuite } from "../../testing/hosts/child-host-suite.js"
import { type Host, startHost } from "../../testing/hosts/child-hosts.js"
import { type Demo, readDemo, signedCall } from "../../testing/hosts/demo-fixtures.js"
import { expectOutageAnswer } from "../../testing/hosts/outage-load.js"

const initiateBody = (refTrx: string) => ({
  payment_amount: 10, currency_code: "USD", ref_trx: refTrx, success_redirect: "https://shop.example/ok",
  cancel_redirect: "https://shop.example/cancel", ipn_url: "https://shop.example/ipn"
})

/**
 * The built host on its SQLite file while another process holds the file's write lock past the
 * host's busy timeout (5 s): the write cannot take place, so the caller is told to come back (503
 * with Retry-After in the 7.3 body), nothing is written, and once the lock is gone the host answers
 * as before.
 */
describe("a busy SQLite file answers 503 with Retry-After", () => {
  const scratch = childHostSuite("mp-store-busy-", { receiver: false })
  let host: Host
  let demo: Demo
  let dataDir = ""

  beforeAll(async () => {
    dataDir = join(scratch(), "host")
    host = await startHost(dataDir, {})
    demo = readDemo(dataDir)
  }, 60_000)

  it("initiate while another connection holds the write lock: 503, no payment; after it is released: 200", async () => {
    const other = new Database(join(dataDir, "merchant-payments.db"))
    const payments = () => Number((other.prepare("SELECT COUNT(*) AS n FROM payments").get() as { n: number }).n)
    try {
      const before = payments()
      other.exec("BEGIN IMMEDIATE")
      const busy = await signedCall(host.url, demo, "POST", "/api/v1/initiate-payment", { body: initiateBody("busy-1") })
      expect(busy.status, busy.text).toBe(503)
      expectOutageAnswer({ call: "initiate", phase: "busy", status: busy.status, retryAfter: busy.headers.get("retry-after"), json: busy.json, text: busy.text })
      other.exec("ROLLBACK")
      expect(payments()).toBe(before)

      // The same call again, as the client's retry sends it, now goes through.
      const retried = await signedCall(host.url, demo, "POST", "/api/v1/initiate-payment", { body: initiateBody("busy-1") })
      expect(retried.status, retried.text).toBe(200)
      expect(payments()).toBe(before + 1)
      expect(host.output()).toMatch(/WARN {2}store unavailable; answered 503: .*database is locked/)
    } finally {
      other.close()
    }
  }, 60_000)
})
