import * as HttpRouter from "@effect/platform/HttpRouter"
import * as Effect from "effect/Effect"
import { ResourceNotFound } from "../response/edge-errors.js"

/** A positive integer id from the path; anything else names no resource, so it is a 404. */
export const pathId = (name: string, resource: string) =>
  Effect.flatMap(HttpRouter.params, (params) => {
    const text = params[name] ?? ""
    return /^[1-9][0-9]{0,14}$/.test(text) ? Effect.succeed(Number(text)) : Effect.fail(new ResourceNotFound({ resource }))
  })
