import { Effect, ManagedRuntime } from "effect"
import { createMerchant, issueCredentials, replaceCurrencies } from "../../core/merchants/merchant-admin.js"
import type { Environment } from "../../core/shared/environment.js"
import { signRequest } from "../../core/signing/request-signature.js"

export interface TestCaller {
  readonly environment: Environment
  readonly merchantKey: string
  readonly apiKey: string
  readonly clientSecret: string
}

/** A merchant with credentials in one environment, made through the kit's own admin use cases. */
export const makeCaller = <R, E>(runtime: ManagedRuntime.ManagedRuntime<R, E>, environment: Environment) =>
  runtime.runPromise(
    Effect.gen(function*() {
      const merchant = yield* createMerchant({ name: "Test merchant", status: "approved" })
      yield* replaceCurrencies(merchant.id, ["USD"])
      const issued = yield* issueCredentials(merchant.id, environment)
      return { environment, merchantKey: issued.merchantKey, apiKey: issued.apiKey, clientSecret: issued.clientSecret }
    }) as Effect.Effect<TestCaller, unknown, R>
  )

/** A signed web Request for in-memory handlers (`HttpApp.toWebHandlerLayer`). */
export const signedRequest = (
  caller: TestCaller,
  method: string,
  path: string,
  body: string,
  headers: Record<string, string> = {}
): Request => {
  const timestamp = String(Math.floor(Date.now() / 1000))
  return new Request(`http://kit.test${path}`, {
    method,
    ...(method === "GET" ? {} : { body }),
    headers: {
      "content-type": "application/json",
      "x-environment": caller.environment,
      "x-merchant-key": caller.merchantKey,
      "x-api-key": caller.apiKey,
      "x-timestamp": timestamp,
      "x-signature": signRequest(caller.clientSecret, { timestamp, method, pathWithQuery: path, rawBody: body }),
      ...headers
    }
  })
}
