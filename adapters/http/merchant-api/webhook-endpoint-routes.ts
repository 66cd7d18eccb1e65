import * as Effect from "effect/Effect"
import { toIsoString } from "../../../core/shared/instant.js"
import { storedWebhookUrlRefusal } from "../../../core/webhooks/ipn-url-rule.js"
import type { WebhookEndpoint } from "../../../core/webhooks/webhook-endpoint.js"
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  eventsRefusal,
  getWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint
} from "../../../core/webhooks/webhook-endpoints.js"
import { textInPath } from "../contract/parameters.js"
import { readJsonBody } from "../contract/read-body.js"
import * as Contract from "../contract/webhook-endpoint-contracts.js"
import { endpoint } from "../endpoint/endpoint.js"
import { CurrentMerchant } from "../endpoint/merchant-endpoint.js"
import type { BodyFields } from "../request/body-fields.js"

const endpointJson = (webhookEndpoint: WebhookEndpoint) => ({
  id: webhookEndpoint.id,
  url: webhookEndpoint.url,
  events: webhookEndpoint.events,
  description: webhookEndpoint.description,
  status: webhookEndpoint.status,
  environment: webhookEndpoint.environment,
  created_at: toIsoString(webhookEndpoint.createdAt),
  updated_at: toIsoString(webhookEndpoint.updatedAt)
})

const TAG = "Webhook endpoints"
const endpointIdInPath = textInPath("endpointId", "The webhook endpoint's id.")

/**
 * The use case judges the url and the event patterns; a body refused for another field never reaches
 * it, so the same rules are asked here then, and their problems told with the rest at once.
 */
const rulesToo = (fields: BodyFields, values: { readonly url: string | undefined; readonly events: ReadonlyArray<string> | undefined }) =>
  Effect.gen(function*() {
    if (!fields.refused) return
    const urlRefusal = values.url === undefined ? undefined : yield* storedWebhookUrlRefusal(values.url, "url")
    if (urlRefusal !== undefined) fields.fail("url", urlRefusal)
    for (const message of (values.events === undefined ? undefined : eventsRefusal(values.events)) ?? []) fields.fail("events", message)
  })

const create = endpoint({
  method: "post",
  path: "/api/v1/webhook-endpoints",
  operationId: "createWebhookEndpoint",
  summary: "Add a URL that events are sent to",
  description: "In the environment of the request: payout, dispute and balance events go only to endpoints; payment and subscription events " +
    "go to their ipn_url and to every endpoint subscribed. Signed, delivered and retried as ipn_url events are.",
  tag: TAG,
  security: "merchant",
  body: Contract.createWebhookEndpointBody,
  success: { status: 201, description: "The endpoint, enabled (also for an idempotent replay).", schema: Contract.WebhookEndpointEnvelope },
  errors: ["WebhookEndpointLimitReached"],
  handler: Effect.gen(function*() {
    const { done, fields, values } = yield* readJsonBody(Contract.createWebhookEndpointBody)
    yield* rulesToo(fields, values)
    const body = yield* done((valid) => valid)
    const created = yield* createWebhookEndpoint(yield* CurrentMerchant, { url: body.url, events: body.events, description: body.description ?? null })
    return { data: endpointJson(created) }
  })
})

const list = endpoint({
  method: "get",
  path: "/api/v1/webhook-endpoints",
  operationId: "listWebhookEndpoints",
  summary: "The merchant's webhook endpoints",
  description: "Those of the environment of the request, oldest first.",
  tag: TAG,
  security: "merchant",
  success: { status: 200, description: "The endpoints.", schema: Contract.WebhookEndpointList },
  handler: Effect.map(Effect.flatMap(CurrentMerchant, listWebhookEndpoints), (endpoints) => ({ data: endpoints.map(endpointJson) }))
})

const get = endpoint({
  method: "get",
  path: "/api/v1/webhook-endpoints/{endpointId}",
  operationId: "getWebhookEndpoint",
  summary: "One webhook endpoint",
  description: "Another merchant's or environment's id is not found.",
  tag: TAG,
  security: "merchant",
  parameters: [endpointIdInPath],
  success: { status: 200, description: "The endpoint.", schema: Contract.WebhookEndpointEnvelope },
  errors: ["WebhookEndpointNotFound"],
  handler: Effect.gen(function*() {
    return { data: endpointJson(yield* getWebhookEndpoint(yield* CurrentMerchant, yield* endpointIdInPath.read)) }
  })
})

// POST, as every change in the merchant API is (its client speaks GET, POST and DELETE): only the fields given change.
const update = endpoint({
  method: "post",
  path: "/api/v1/webhook-endpoints/{endpointId}",
  operationId: "updateWebhookEndpoint",
  summary: "Change a webhook endpoint's url, events, description or status",
  description: "Only the fields given change. A disabled endpoint is sent no new event until enabled again; events already queued still go out.",
  tag: TAG,
  security: "merchant",
  parameters: [endpointIdInPath],
  body: Contract.updateWebhookEndpointBody,
  success: { status: 200, description: "The endpoint as it is now.", schema: Contract.WebhookEndpointEnvelope },
  errors: ["WebhookEndpointNotFound"],
  handler: Effect.gen(function*() {
    const id = yield* endpointIdInPath.read
    const { done, fields, values } = yield* readJsonBody(Contract.updateWebhookEndpointBody)
    yield* rulesToo(fields, values)
    const body = yield* done((valid) => valid)
    const updated = yield* updateWebhookEndpoint(yield* CurrentMerchant, id, {
      ...(body.url !== undefined ? { url: body.url } : {}),
      ...(body.events !== undefined ? { events: body.events } : {}),
      ...(body.description !== undefined ? { description: body.description === "" ? null : body.description } : {}),
      ...(body.status !== undefined ? { status: body.status } : {})
    })
    return { data: endpointJson(updated) }
  })
})

const remove = endpoint({
  method: "delete",
  path: "/api/v1/webhook-endpoints/{endpointId}",
  operationId: "deleteWebhookEndpoint",
  summary: "Delete a webhook endpoint",
  description: "No new event is queued for it; events already queued still go out. Another merchant's or environment's id is not found.",
  tag: TAG,
  security: "merchant",
  parameters: [endpointIdInPath],
  success: { status: 200, description: "The endpoint is gone.", schema: Contract.DeletedWebhookEndpoint },
  errors: ["WebhookEndpointNotFound"],
  handler: Effect.gen(function*() {
    const id = yield* endpointIdInPath.read
    yield* deleteWebhookEndpoint(yield* CurrentMerchant, id)
    return { data: { id, deleted: true as const } }
  })
})

/** Where account events go (issue 35, item 5): add, list, read, change and delete webhook endpoints. */
export const webhookEndpointEndpoints = [create, list, get, update, remove] as const
