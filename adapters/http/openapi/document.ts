import * as OpenApiJsonSchema from "@effect/platform/OpenApiJsonSchema"
import type * as Schema from "effect/Schema"
import { MAX_IDEMPOTENCY_KEY_LENGTH } from "../../../core/idempotency/idempotency-policy.js"
import { bodyErrorCodes, bodySchema } from "../contract/read-body.js"
import { ErrorBody } from "../contract/payment-resources.js"
import { FileAnswer } from "../response/text-file.js"
import { adminApi } from "../admin-api/admin-api.js"
import { byStatus, type DocumentedError, documentedError } from "./error-responses.js"
import type { ErrorTag, Operation } from "./operation.js"
import { pageOperations } from "./page-operations.js"
import { merchantApi } from "../merchant-api/merchant-api.js"
import { securityRequirements, securitySchemes } from "./security.js"
import { webhookEvents, webhookOperation } from "./webhook-operations.js"

/** Every operation the kit answers, in the order the reference shows them. */
export const operations: ReadonlyArray<Operation> = [...merchantApi, ...pageOperations, ...adminApi]

// A store outage (StoreUnavailable's 503 with Retry-After) can meet any call that reaches the store.
// AuthenticationThrottled: a failed authentication past the threshold of its address or merchant key.
const MERCHANT_ERRORS: ReadonlyArray<ErrorTag> = ["AuthenticationFailed", "AuthenticationThrottled", "MerchantPendingApproval", "MerchantSuspended", "MerchantBlocked", "RateLimited", "StorageError", "StoreUnavailable"]
const MERCHANT_POST_ERRORS: ReadonlyArray<ErrorTag> = ["IdempotencyKeyReused", "IdempotentRequestInFlight"]
const ADMIN_ERRORS: ReadonlyArray<ErrorTag> = ["AdminUnauthorized", "AuthenticationThrottled", "StorageError", "StoreUnavailable"]
const BODY_ERRORS: ReadonlyArray<ErrorTag> = ["MalformedJson", "BodyTooLarge", "UnsupportedMediaType"]

const isMerchant = (operation: Operation) => operation.security === "merchant" || operation.security === "merchant-production-default"

/** Every refusal of an operation: its scheme's, its body's and its own, as the error table words them. */
const errorsOf = (operation: Operation): ReadonlyArray<DocumentedError> => {
  const tags: Array<ErrorTag> = [...(operation.errors ?? [])]
  if (isMerchant(operation)) tags.push(...MERCHANT_ERRORS, ...(operation.method === "post" ? MERCHANT_POST_ERRORS : []))
  if (operation.security === "admin") tags.push(...ADMIN_ERRORS)
  if (operation.body !== undefined) tags.push(...BODY_ERRORS)
  if (operation.textBody !== undefined) tags.push("BodyTooLarge", "UnsupportedMediaType")
  if ((operation.parameters ?? []).some((parameter) => parameter.in === "path") && operation.security !== "none") tags.push("ResourceNotFound")
  const validation = operation.body === undefined ? [] : bodyErrorCodes(operation.body).map((code) => documentedError("ValidationFailed", code))
  const idempotencyKey = isMerchant(operation) && operation.method === "post" ? [documentedError("ValidationFailed")] : []
  return [...validation, ...idempotencyKey, ...tags.filter((tag) => tag !== "ValidationFailed" || operation.body === undefined).map((tag) => documentedError(tag))]
}

// Titles are the filters' own names ("maxLength(100)"): noise next to the constraint they name.
const withoutTitles = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutTitles)
  if (typeof value !== "object" || value === null) return value
  return Object.fromEntries(Object.entries(value).filter(([key, item]) => !((key === "title" || key === "$id") && typeof item === "string")).map(([key, item]) => [key, withoutTitles(item)]))
}

/** The OpenAPI 3.1 document of the kit, served under `serverUrl` (the public base, base path included). */
export const openApiDocument = (options: { readonly serverUrl: string }) => {
  const defs: Record<string, unknown> = {}
  const schemaOf = (schema: Schema.Schema.AnyNoContext) =>
    withoutTitles(OpenApiJsonSchema.makeWithDefs(schema, { defs, additionalPropertiesStrategy: "allow" }))
  const errorSchema = schemaOf(ErrorBody)

  const operationObject = (operation: Operation) => {
    const responses: Record<string, unknown> = {}
    const { success } = operation
    const files = Object.fromEntries((success.files ?? []).map((type) => [type, { schema: { type: "string" } }]))
    responses[String(success.status)] = {
      description: success.description,
      ...(success.schema === FileAnswer
        ? { content: files }
        : success.schema !== undefined
        ? { content: { "application/json": { schema: schemaOf(success.schema) }, ...files } }
        : success.contentType !== undefined ? { content: { [success.contentType]: {} } } : {})
    }
    for (const other of operation.others ?? []) {
      responses[String(other.status)] = { description: other.description, ...(other.contentType !== undefined ? { content: { [other.contentType]: {} } } : {}) }
    }
    for (const [status, errors] of byStatus(errorsOf(operation))) {
      responses[String(status)] = {
        description: errors.map((error) => `\`${error.errorCode}\`: ${error.message}`).join("\n\n"),
        content: { "application/json": { schema: errorSchema } }
      }
    }
    const idempotencyKey = isMerchant(operation) && operation.method === "post"
      ? [{
        name: "Idempotency-Key",
        in: "header",
        required: false,
        description: "Runs the POST at most once: the identical request within 24 hours is answered again with `Idempotent-Replayed: true`.",
        schema: { type: "string", minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH }
      }]
      : []
    return {
      operationId: operation.operationId,
      summary: operation.summary,
      ...(operation.description !== undefined ? { description: operation.description } : {}),
      tags: [operation.tag],
      security: securityRequirements(operation.security),
      parameters: [
        ...(operation.parameters ?? []).map((parameter) => ({
          name: parameter.name,
          in: parameter.in,
          required: parameter.required,
          description: parameter.description,
          schema: schemaOf(parameter.schema)
        })),
        ...idempotencyKey
      ],
      ...(operation.textBody !== undefined
        ? {
          requestBody: {
            required: true,
            description: operation.textBody.description,
            content: { [operation.textBody.contentType]: { schema: { type: "string", maxLength: operation.textBody.maxBytes } } }
          }
        }
        : {}),
      ...(operation.body !== undefined
        ? {
          requestBody: {
            required: Object.values(operation.body.fields).some((rule) => rule.required),
            content: { "application/json": { schema: schemaOf(bodySchema(operation.body)) } }
          }
        }
        : {}),
      responses
    }
  }

  const paths: Record<string, Record<string, unknown>> = {}
  for (const operation of operations) (paths[operation.path] ??= {})[operation.method] = operationObject(operation)
  const webhooks = Object.fromEntries(webhookEvents.map((event) => [event.name, webhookOperation(event, schemaOf(event.payload))]))

  return {
    openapi: "3.1.0",
    info: {
      title: "Merchant Payments API",
      version: "1.0",
      description: "Hosted checkout, verification, refunds, subscriptions and signed webhooks (the merchant API, spec sections 1-9), the operator's admin API under /admin/v1, and the customer's checkout pages. Amounts are exact decimals: JSON numbers written with every digit."
    },
    servers: [{ url: options.serverUrl }],
    tags: [...new Set([...operations.map((operation) => operation.tag), "Webhooks"])].map((name) => ({ name })),
    paths,
    webhooks,
    components: { schemas: withoutTitles(defs), securitySchemes }
  }
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>

/** The document as served and as `npm run openapi` writes it. */
export const renderOpenApiDocument = (serverUrl: string): string => `${JSON.stringify(openApiDocument({ serverUrl }), null, 2)}\n`
