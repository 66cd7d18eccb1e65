import { HttpApp, HttpRouter, HttpServerResponse } from "@effect/platform"
import { Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { type PageRoute, type PatternedParameter, pageRouter } from "./page-route.js"

const SHAPE = /^[a-z]+\.[a-z]+$/
const token: PatternedParameter = { name: "token", in: "path", required: true, description: "A token.", schema: Schema.String, pattern: SHAPE }
const step: PatternedParameter = { name: "step", in: "path", required: true, description: "A step.", schema: Schema.String, pattern: /^\d{1,3}$/ }

/** Each page answers with its name and the parameters it was given. */
const says = (name: string) => Effect.map(HttpRouter.params, (params) => HttpServerResponse.unsafeJson({ name, params }))
const page = (method: "get" | "post", path: string, name: string, parameters: ReadonlyArray<PatternedParameter> = []): PageRoute<ReturnType<typeof says>> => ({
  method, path, operationId: name, summary: name, parameters, success: { status: 200, description: name }, handler: says(name)
})

const pages = [
  page("get", "/room/{token}", "show", [token]),
  page("get", "/room/{token}/steps/{step}", "step", [token, step]),
  page("post", "/room/{token}/steps/{step}", "postStep", [token, step]),
  page("get", "/room/assets/app.js", "asset")
]

const handler = HttpApp.toWebHandler(HttpRouter.concat(
  pageRouter(pages, { unmatched: Effect.succeed(HttpServerResponse.text("no such page", { status: 404 })) }),
  HttpRouter.empty.pipe(HttpRouter.get("/plain/:id", Effect.map(HttpRouter.params, (params) => HttpServerResponse.text(params["id"] ?? ""))))
))

const call = async (method: string, path: string) => {
  const response = await handler(new Request(`http://kit.test${path}`, { method }))
  return { status: response.status, text: await response.text() }
}

describe("pageRouter: pages with a patterned parameter are matched by the kit, under their prefix", () => {
  const long = `${"a".repeat(300)}.${"b".repeat(300)}`

  it("matches a parameter longer than the router takes, and gives the handler every parameter", async () => {
    expect(JSON.parse((await call("GET", `/room/${long}`)).text)).toEqual({ name: "show", params: { token: long } })
    expect(JSON.parse((await call("GET", `/room/${long}/steps/7?x=1`)).text)).toEqual({ name: "step", params: { token: long, step: "7" } })
    expect(JSON.parse((await call("POST", `/room/${long}/steps/7`)).text)).toEqual({ name: "postStep", params: { token: long, step: "7" } })
  })

  it("answers the room's own page for an address under the prefix that names no page, or breaks a pattern", async () => {
    for (const path of ["/room/nodot", `/room/${long}/steps/1234`, `/room/${long}/steps/x`, `/room/${long}/other`, "/room/assets/other.js"]) {
      expect(await call("GET", path), path).toEqual({ status: 404, text: "no such page" })
    }
    expect(await call("POST", `/room/${long}`)).toEqual({ status: 404, text: "no such page" })
  })

  it("leaves a page without one to the router, which takes a literal before the prefix's route", async () => {
    expect(JSON.parse((await call("GET", "/room/assets/app.js")).text)).toEqual({ name: "asset", params: {} })
  })

  it("leaves the router's limit on every other route: a path parameter over 100 characters names no route", async () => {
    expect(await call("GET", `/plain/${"x".repeat(100)}`)).toEqual({ status: 200, text: "x".repeat(100) })
    expect((await call("GET", `/plain/${"x".repeat(101)}`)).status).toBe(404)
    expect((await call("GET", `/plain/${"x".repeat(101)}`)).text).not.toBe("x".repeat(101))
  })
})
