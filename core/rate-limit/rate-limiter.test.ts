import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer, TestClock } from "effect"
import { StorageError } from "../shared/storage-error.js"
import { RateLimitCounters } from "./rate-limit-counters.js"
import * as RateLimiter from "./rate-limiter.js"

/** The store as several hosts would share it: totals per key and window, and a count of writes. */
const makeStore = () => {
  const totals = new Map<string, number>()
  const state = { writes: 0, failNext: false }
  const failing = () => {
    if (!state.failNext) return false
    state.failNext = false
    return true
  }
  const addOne = (key: string, windowStart: number, requests: number) => {
    const id = `${windowStart}|${key}`
    totals.set(id, (totals.get(id) ?? 0) + requests)
    return totals.get(id)!
  }
  const counters = RateLimitCounters.of({
    add: (key, windowStart, requests) =>
      Effect.suspend(() => {
        if (failing()) return Effect.fail(new StorageError({ message: "store down" }))
        state.writes++
        return Effect.succeed(addOne(key, windowStart, requests))
      }),
    // One call is one write, however many windows it carries: as one statement on a SQL store.
    addAll: (additions) =>
      Effect.suspend(() => {
        if (failing()) return Effect.fail(new StorageError({ message: "store down" }))
        state.writes++
        return Effect.succeed(additions.map((a) => addOne(a.key, a.windowStartSeconds, a.requests)))
      }),
    purgeBefore: () => Effect.succeed(0)
  })
  return { totals, state, layer: Layer.succeed(RateLimitCounters, counters) }
}

/** One host's limiter over a shared store, built in the test's scope, its flusher started. */
const host = (store: ReturnType<typeof makeStore>) =>
  Layer.build(RateLimiter.layer().pipe(Layer.provide(store.layer))).pipe(
    Effect.map((context) => Context.get(context, RateLimiter.RateLimiter)),
    // The flusher's first pass runs when its fiber first gets to run; let it, so each later
    // `adjust` by one interval triggers exactly one flush.
    Effect.zipLeft(TestClock.adjust("0 millis"))
  )

const NOW = 1_800_000_000 // a window start
const checks = (limiter: RateLimiter.RateLimiter["Type"], count: number, limit: number) =>
  Effect.forEach(Array.from({ length: count }), () => limiter.check("m1|ip", limit, NOW + 5))

describe("rate limiter", () => {
  it.scoped("counts a window's first request in the store, then in memory until the next flush", () =>
    Effect.gen(function*() {
      const store = makeStore()
      const limiter = yield* host(store)
      const decisions = yield* checks(limiter, 10, 120)
      expect(decisions.every((d) => d.allowed)).toBe(true)
      expect([store.state.writes, store.totals.get(`${NOW}|m1|ip`)]).toEqual([1, 1])
      yield* TestClock.adjust("200 millis")
      expect(store.totals.get(`${NOW}|m1|ip`)).toBe(10)
    }))

  it.scoped("a flush writes every active window in one write, and each learns its shared total", () =>
    Effect.gen(function*() {
      const store = makeStore()
      const a = yield* host(store)
      const b = yield* host(store)
      const keys = Array.from({ length: 30 }, (_, i) => `m${i}|ip`)
      yield* Effect.forEach(keys, (key) => Effect.repeatN(a.check(key, 1000, NOW + 5), 2))
      yield* Effect.forEach(keys, (key) => b.check(key, 1000, NOW + 5))
      const before = store.state.writes
      yield* TestClock.adjust("200 millis")
      // Two hosts, one flush each: two writes for thirty windows.
      expect(store.state.writes - before).toBe(2)
      expect(keys.every((key) => store.totals.get(`${NOW}|${key}`) === 4)).toBe(true)
      // Each host learned the other's counts from its flush: a's next estimate is 4 + 1.
      expect((yield* a.check("m7|ip", 1000, NOW + 5)).count).toBe(5)
      yield* TestClock.adjust("200 millis")
      expect(store.state.writes - before).toBe(4)
    }))

  it.scoped("is exact near the limit: of 25 requests against 20, exactly 20 pass", () =>
    Effect.gen(function*() {
      const store = makeStore()
      const limiter = yield* host(store)
      const decisions = yield* checks(limiter, 25, 20)
      expect(decisions.filter((d) => d.allowed).length).toBe(20)
      expect(decisions.slice(20).every((d) => !d.allowed && d.retryAfterSeconds === 55)).toBe(true)
      expect(store.totals.get(`${NOW}|m1|ip`)).toBe(25)
    }))

  it.scoped("hosts sharing a store share the limit", () =>
    Effect.gen(function*() {
      const store = makeStore()
      const a = yield* host(store)
      const b = yield* host(store)
      const fromA = yield* checks(a, 20, 30)
      yield* TestClock.adjust("200 millis")
      const fromB = yield* checks(b, 15, 30)
      const fromAAgain = yield* checks(a, 5, 30)
      const allowed = [...fromA, ...fromB, ...fromAAgain].filter((d) => d.allowed).length
      expect(allowed).toBe(30)
    }))

  it.scoped("a failed write is kept and written by a later flush", () =>
    Effect.gen(function*() {
      const store = makeStore()
      const limiter = yield* host(store)
      yield* checks(limiter, 6, 120)
      store.state.failNext = true
      yield* TestClock.adjust("200 millis")
      expect(store.totals.get(`${NOW}|m1|ip`)).toBe(1)
      yield* TestClock.adjust("200 millis")
      expect(store.totals.get(`${NOW}|m1|ip`)).toBe(6)
    }))

  it.scoped("peek answers what the next check would, counting nothing, from the store's total near the limit", () =>
    Effect.gen(function*() {
      const store = makeStore()
      const a = yield* host(store)
      const b = yield* host(store)
      expect((yield* a.peek("m1|ip", 3, NOW + 5)).allowed).toBe(true)
      yield* checks(b, 3, 3)
      // Another host counted three: a limit of three is reached, though this host counted none itself.
      const peeked = yield* a.peek("m1|ip", 3, NOW + 5)
      expect(peeked).toEqual({ allowed: false, count: 4, retryAfterSeconds: 55 })
      expect(yield* a.peek("m1|ip", 3, NOW + 5)).toEqual(peeked)
      expect(store.totals.get(`${NOW}|m1|ip`)).toBe(3)
      expect((yield* b.peek("m1|ip", 3, NOW + 65)).allowed).toBe(true)
    }))

  it("tells a refused caller how long the window has left", () => {
    expect(RateLimiter.decide(121, 120, NOW + 50)).toEqual({ allowed: false, count: 121, retryAfterSeconds: 10 })
    expect(RateLimiter.decide(120, 120, NOW + 59)).toEqual({ allowed: true, count: 120, retryAfterSeconds: 1 })
  })
})
