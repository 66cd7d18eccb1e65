import { describe, expect, it } from "vitest"
import { readHostConfig } from "../embedding/host-config.js"
import { HostFailure } from "../embedding/host-config.js"
import { explainFailure } from "./startup-problems.js"

/** A Node system error as fs and net throw them. */
const systemError = (code: string, fields: Record<string, unknown>) => Object.assign(new Error(`${code}: something`), { code, ...fields })

describe("explainFailure", () => {
  it("names a path the host may not write (the process test cannot: it runs as root)", () => {
    const error = systemError("EACCES", { syscall: "mkdir", path: "/srv/data" })
    expect(explainFailure(error, readHostConfig({ DATA_DIR: "/srv/data" }))).toBe(
      "cannot use /srv/data: permission denied (set DATA_DIR or DATABASE_URL)"
    )
  })

  it("names a privileged port", () => {
    const error = { _tag: "ServeError", cause: systemError("EACCES", { syscall: "listen", port: 80 }) }
    expect(explainFailure(error)).toBe("port 80 needs privileges this user lacks (set PORT above 1023)")
  })

  it("keeps a PostgreSQL password out of the line", () => {
    const config = readHostConfig({ DATABASE_URL: "postgres://shop:hunter2@db.internal:6543/shop" })
    const error = { _tag: "SqlError", message: "PgClient: Failed to connect", cause: new Error('password authentication failed for user "shop"') }
    expect(explainFailure(error, config)).toBe(
      'cannot connect to PostgreSQL at db.internal:6543/shop: password authentication failed for user "shop" (check DATABASE_URL)'
    )
  })

  it("passes an explained failure through, and puts any other message on one line", () => {
    expect(explainFailure(new HostFailure("port 1 is in use (set PORT)"))).toBe("port 1 is in use (set PORT)")
    expect(explainFailure(new Error("first\n  second"))).toBe("first second")
  })
})
