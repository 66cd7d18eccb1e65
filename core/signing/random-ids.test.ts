import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { Ids, layer, layerTest } from "./random-ids.js"

const run = <A>(effect: Effect.Effect<A, never, Ids>, ids: Layer.Layer<Ids> = layer): A =>
  Effect.runSync(Effect.provide(effect, ids))

describe("Ids live layer", () => {
  it("prefixes transaction ids by environment with 26 Crockford base32 characters", () => {
    const [sandbox, production] = run(
      Effect.flatMap(Ids, (ids) => Effect.all([ids.transactionId("sandbox"), ids.transactionId("production")]))
    )
    expect(sandbox).toMatch(/^SANDBOX_[0-9A-HJKMNP-TV-Z]{26}$/)
    expect(production).toMatch(/^PRODUCTION_[0-9A-HJKMNP-TV-Z]{26}$/)
  })

  it("draws distinct transaction ids using the whole alphabet", () => {
    const values = run(Effect.flatMap(Ids, (ids) => Effect.replicateEffect(ids.transactionId("sandbox"), 1_000)))
    expect(new Set(values).size).toBe(1_000)
    expect(new Set(values.flatMap((v) => [...v.slice("SANDBOX_".length)])).size).toBe(32)
  })

  it("draws RFC 4122 version 4 UUIDs", () => {
    const values = run(Effect.flatMap(Ids, (ids) => Effect.replicateEffect(ids.uuid, 100)))
    for (const v of values) expect(v).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(new Set(values).size).toBe(100)
  })

  it("draws base64url tokens of the requested byte length", () => {
    const [a, b] = run(Effect.flatMap(Ids, (ids) => Effect.all([ids.token(32), ids.token(32)])))
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(a!, "base64url").length).toBe(32)
    expect(a).not.toBe(b)
  })
})

describe("Ids test layer", () => {
  const draw = Effect.flatMap(Ids, (ids) =>
    Effect.all([ids.transactionId("sandbox"), ids.transactionId("production"), ids.uuid, ids.token(4), ids.uuid])
  )

  it("is predictable, with one counter per operation", () => {
    expect(run(draw, layerTest())).toEqual([
      "SANDBOX_00000000000000000000000001",
      "PRODUCTION_00000000000000000000000002",
      "00000000-0000-4000-8000-000000000001",
      Buffer.from([0, 0, 0, 1]).toString("base64url"),
      "00000000-0000-4000-8000-000000000002"
    ])
  })

  it("offsets by the seed and restarts per build", () => {
    const seeded = layerTest(30)
    expect(run(draw, seeded)[0]).toBe("SANDBOX_0000000000000000000000000Z")
    expect(run(draw, seeded)[0]).toBe("SANDBOX_0000000000000000000000000Z")
    expect(run(draw, layerTest(31))[0]).toBe("SANDBOX_00000000000000000000000010")
  })
})
