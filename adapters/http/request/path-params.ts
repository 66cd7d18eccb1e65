import * as HttpRouter from "@effect/platform/HttpRouter"
import * as Effect from "effect/Effect"
import { ResourceNotFound } from "../response/edge-errors.js"

/** How every integer id the kit gives out is written: positive, at most 15 digits (a safe integer). */
export const WHOLE_ID = /^[1-9][0-9]{0,14}$/

/** A positive integer id from the path; anything else names no resource, so it is a 404. */
export const pathId = (name: string, resource: string) =>
  Effect.flatMap(HttpRouter.params, (params) => {
    const text = params[name] ?? ""
    return WHOLE_ID.test(text) ? Effect.succeed(Number(text)) : Effect.fail(new ResourceNotFound({ resource }))
  })
