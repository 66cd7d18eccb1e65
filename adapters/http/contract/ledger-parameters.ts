import * as Schema from "effect/Schema"
import { type Environment, environments } from "../../../core/shared/environment.js"
import { Environment as EnvironmentSchema } from "./value-schemas.js"
import type { ListParameter } from "./parameters.js"
import { queryOf } from "./query-contract.js"

/** The query of GET /admin/v1/ledger/trial-balance: one book, both parameters required, every bad one told at once. */

export const bookEnvironmentParameter: ListParameter<Environment> = {
  name: "environment",
  in: "query",
  required: true,
  description: "The book's environment: sandbox or production (separate books, never summed together).",
  schema: EnvironmentSchema,
  read: (query) => query.oneOf("environment", environments) ?? query.required("environment")
}

export const bookCurrencyParameter: ListParameter<string> = {
  name: "currency",
  in: "query",
  required: true,
  description: "The book's currency code, one the deployment knows (USD, EUR...).",
  schema: Schema.String.pipe(Schema.maxLength(10), Schema.pattern(/^[A-Z][A-Z0-9]{2,9}$/)),
  read: (query) => query.text("currency", 10) ?? query.required("currency")
}

export const trialBalanceQuery = queryOf({ environment: bookEnvironmentParameter, currency: bookCurrencyParameter })
