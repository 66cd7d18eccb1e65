import { HttpApp, HttpRouter } from "@effect/platform"
import { Deferred, Effect, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { defaultSiteSettings } from "../../core/settings/site-settings.js"
import { ValidationFailed } from "../../core/shared/validation.js"
import { created } from "../../adapters/http/response/api-response.js"
import { merchantEndpoint } from "../../adapters/http/endpoint/merchant-endpoint.js"
import { jsonObjectBody } from "../../adapters/http/request/request-body.js"
import { makeCaller, signedRequest, type TestCaller } from "../../testing/http/signed-client.js"
import { testKitConfig } from "./test-kit-config.js"

/**
 * Idempotency-Key through the real edge (authentication, rate limit, idempotency store) on a POST
 * route that exists only here: it counts how often its handler actually ran, can be held open to
 * test the in-flight rule, can fail with 5xx once, and can answer a 4xx.
 */
export const idempotencySuite = (name: string, store: () => StoreConfig, options: { readonly sharedByHosts?: boolean } = {}) =>
  describe(`Idempotency-Key on POST: ${name}`, () => {
    let runs = 0
    const gates = new Map<string, Deferred.Deferred<void>>()
    const failedOnce = new Set<string>()

    const route = HttpRouter.empty.pipe(HttpRouter.post("/api/v1/test/echo", merchantEndpoint(Effect.gen(function*() {
      const body = yield* jsonObjectBody
      runs++
      const tag = String(body["tag"] ?? "")
      if (body["hold"] === true) yield* Deferred.await(gates.get(tag)!)
      if (typeof body["delay_ms"] === "number") yield* Effect.sleep(body["delay_ms"])
      if (body["fail_once"] === true && !failedOnce.has(tag)) {
        failedOnce.add(tag)
        return yield* Effect.die(new Error("transient failure"))
      }
      if (body["invalid"] === true) return yield* ValidationFailed.field("invalid", "The invalid field is invalid.")
      return created({ run: runs, tag })
    }))))

    let handler: (request: Request) => Promise<Response>
    let secondHost: ((request: Request) => Promise<Response>) | undefined
    const disposers: Array<() => Promise<void>> = []
    let sandbox: TestCaller
    let production: TestCaller
    let other: TestCaller

    const kit = () =>
      kitLayer(testKitConfig(store(), { settings: { ...defaultSiteSettings, rateLimitPerMinute: 1_000_000 }, baseUrl: "http://kit.test" }))

    beforeAll(async () => {
      const runtime = ManagedRuntime.make(kit())
      sandbox = await makeCaller(runtime, "sandbox")
      production = await makeCaller(runtime, "production")
      other = await makeCaller(runtime, "sandbox")
      handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(route)
      disposers.push(() => runtime.dispose())
      if (options.sharedByHosts === true) {
        // A second host: its own runtime, pool and in-process state, on the same database.
        const other = ManagedRuntime.make(kit())
        secondHost = HttpApp.toWebHandlerRuntime(await other.runtime())(route)
        disposers.push(() => other.dispose())
      }
    })
    afterAll(() => Promise.all(disposers.map((dispose) => dispose())))

    const post = (caller: TestCaller, body: object, key?: string, path = "/api/v1/test/echo", host = handler) =>
      host(signedRequest(caller, "POST", path, JSON.stringify(body), key === undefined ? {} : { "idempotency-key": key }))

    const unique = () => `key-${Math.random().toString(36).slice(2)}`

    it("without a key every request runs", async () => {
      const before = runs
      await post(sandbox, { tag: "a" })
      await post(sandbox, { tag: "a" })
      expect(runs - before).toBe(2)
    })

    it("replays the identical request with its original status and body, marked replayed", async () => {
      const key = unique()
      const first = await post(sandbox, { tag: "b" }, key)
      const firstText = await first.text()
      const before = runs
      const again = await post(sandbox, { tag: "b" }, key)
      expect([first.status, again.status]).toEqual([201, 201])
      expect(await again.text()).toBe(firstText)
      expect(again.headers.get("idempotent-replayed")).toBe("true")
      expect(first.headers.get("idempotent-replayed")).toBeNull()
      expect(runs).toBe(before)
    })

    it("refuses the key with other parameters (body or path) with 409", async () => {
      const key = unique()
      await post(sandbox, { tag: "c" }, key)
      const otherBody = await post(sandbox, { tag: "c2" }, key)
      expect(otherBody.status).toBe(409)
      expect(await otherBody.json()).toMatchObject({ success: false, error_code: "IDEMPOTENCY_CONFLICT" })
    })

    it("scopes keys per merchant and per environment", async () => {
      const key = unique()
      const before = runs
      for (const caller of [sandbox, production, other]) expect((await post(caller, { tag: "d" }, key)).status).toBe(201)
      expect(runs - before).toBe(3)
    })

    it("keys longer than 255 characters are a 422; 255 is fine", async () => {
      expect((await post(sandbox, { tag: "e" }, "k".repeat(256))).status).toBe(422)
      expect((await post(sandbox, { tag: "e" }, "k".repeat(255))).status).toBe(201)
    })

    it("an identical request still running is a 409 with Retry-After, then the result is replayed", async () => {
      const key = unique()
      const gate = Effect.runSync(Deferred.make<void>())
      gates.set("held", gate)
      const held = post(sandbox, { tag: "held", hold: true }, key)
      await new Promise((resolve) => setTimeout(resolve, 100))
      const concurrent = await post(sandbox, { tag: "held", hold: true }, key)
      expect(concurrent.status).toBe(409)
      expect(concurrent.headers.get("retry-after")).toBe("1")
      Effect.runSync(Deferred.succeed(gate, undefined))
      const original = await held
      expect(original.status).toBe(201)
      const replay = await post(sandbox, { tag: "held", hold: true }, key)
      expect(await replay.text()).toBe(await original.text())
    })

    it("a 5xx answer is not kept: the retry runs again; a 4xx answer is kept", async () => {
      const key = unique()
      const failed = await post(sandbox, { tag: "f", fail_once: true }, key)
      expect(failed.status).toBe(500)
      const retried = await post(sandbox, { tag: "f", fail_once: true }, key)
      expect(retried.status).toBe(201)
      expect(retried.headers.get("idempotent-replayed")).toBeNull()

      const invalidKey = unique()
      const invalid = await post(sandbox, { tag: "g", invalid: true }, invalidKey)
      expect(invalid.status).toBe(422)
      const before = runs
      const replayed = await post(sandbox, { tag: "g", invalid: true }, invalidKey)
      expect([replayed.status, replayed.headers.get("idempotent-replayed"), runs]).toEqual([422, "true", before])
    })

    it("10 concurrent identical requests run the handler once", async () => {
      const key = unique()
      const before = runs
      const responses = await Promise.all(Array.from({ length: 10 }, () => post(sandbox, { tag: "h" }, key)))
      expect(runs - before).toBe(1)
      const statuses = responses.map((r) => r.status)
      expect(statuses.every((s) => s === 201 || s === 409)).toBe(true)
      expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1)
    })

    if (options.sharedByHosts === true) {
      it("identical requests racing on two hosts run the handler once; every other answer is a replay or in flight", async () => {
        // Both hosts warm (credentials cached, pool connected), so the race is a race.
        for (const host of [handler, secondHost!]) await post(sandbox, { tag: "warm" }, undefined, "/api/v1/test/echo", host)
        const key = unique()
        const before = runs
        const responses = await Promise.all(Array.from({ length: 8 }, (_, i) =>
          post(sandbox, { tag: "two-hosts", delay_ms: 200 }, key, "/api/v1/test/echo", i % 2 === 0 ? handler : secondHost!)))
        expect(runs - before).toBe(1)
        const fresh = responses.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === null)
        expect(fresh).toHaveLength(1)
        expect(responses.every((r) => r.status === 201 || r.status === 409)).toBe(true)
      })
    }
  })
