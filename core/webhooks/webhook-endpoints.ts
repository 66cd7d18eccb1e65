import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { now } from "../shared/instant.js"
import { ValidationFailed } from "../shared/validation.js"
import { Ids } from "../signing/random-ids.js"
import { eventPatternRefusal } from "./event-types.js"
import { storedWebhookUrlRefusal } from "./ipn-url-rule.js"
import {
  MAX_ENDPOINT_DESCRIPTION,
  MAX_ENDPOINT_URL,
  MAX_EVENT_PATTERNS,
  MAX_WEBHOOK_ENDPOINTS,
  type WebhookEndpoint,
  WebhookEndpointLimitReached,
  WebhookEndpointNotFound,
  type WebhookEndpointStatus
} from "./webhook-endpoint.js"
import { type WebhookEndpointChanges, WebhookEndpointRepository } from "./webhook-endpoint-repository.js"

export interface WebhookEndpointInput {
  readonly url: string
  readonly events: ReadonlyArray<string>
  readonly description: string | null
}

export interface WebhookEndpointUpdate {
  readonly url?: string
  readonly events?: ReadonlyArray<string>
  readonly description?: string | null
  readonly status?: WebhookEndpointStatus
}

type Problems = Record<string, Array<string>>

const urlProblems = (url: string, problems: Problems) =>
  Effect.gen(function*() {
    const refusal = url.length > MAX_ENDPOINT_URL
      ? `The url field must not be longer than ${MAX_ENDPOINT_URL} characters.`
      : yield* storedWebhookUrlRefusal(url, "url")
    if (refusal !== undefined) problems["url"] = [refusal]
  })

/** What is wrong with an endpoint's event patterns, one message each; undefined when nothing is. */
export const eventsRefusal = (events: ReadonlyArray<string>): ReadonlyArray<string> | undefined => {
  if (events.length === 0) return ["The events field must name at least one event type."]
  if (events.length > MAX_EVENT_PATTERNS) return [`The events field may name at most ${MAX_EVENT_PATTERNS} event types.`]
  const refused = events.map(eventPatternRefusal).filter((refusal) => refusal !== undefined)
  return refused.length > 0 ? refused : undefined
}

const eventProblems = (events: ReadonlyArray<string>, problems: Problems) => {
  const refused = eventsRefusal(events)
  if (refused !== undefined) problems["events"] = [...refused]
}

const descriptionProblems = (description: string | null | undefined, problems: Problems) => {
  if (description !== null && description !== undefined && description.length > MAX_ENDPOINT_DESCRIPTION) {
    problems["description"] = [`The description field must not be longer than ${MAX_ENDPOINT_DESCRIPTION} characters.`]
  }
}

const refuseAny = (problems: Problems) =>
  Object.keys(problems).length > 0 ? Effect.fail(new ValidationFailed({ errors: problems, code: "VALIDATION_FAILED" })) : Effect.void

/** Repeats say nothing more: kept once, in the order first given. */
const distinct = (events: ReadonlyArray<string>) => [...new Set(events)]

/**
 * Adds an endpoint in the caller's environment. Its url obeys the rule of every webhook URL kept for
 * months (a subscription's ipn_url: HTTPS, public, DNS checked now); its patterns must each name a
 * known event type (core/webhooks/event-types.ts); no more than the limit are kept.
 */
export const createWebhookEndpoint = (scope: MerchantScope, input: WebhookEndpointInput) =>
  Effect.gen(function*() {
    const problems: Problems = {}
    yield* urlProblems(input.url, problems)
    eventProblems(input.events, problems)
    descriptionProblems(input.description, problems)
    yield* refuseAny(problems)
    const at = yield* now
    const endpoint: WebhookEndpoint = {
      id: `we_${(yield* (yield* Ids).uuid).replaceAll("-", "")}`,
      merchantId: scope.merchant.id,
      environment: scope.environment,
      url: input.url,
      events: distinct(input.events),
      description: input.description,
      status: "enabled",
      createdAt: at,
      updatedAt: at
    }
    const created = yield* (yield* WebhookEndpointRepository).create(endpoint, MAX_WEBHOOK_ENDPOINTS)
    if (!created) return yield* new WebhookEndpointLimitReached({ limit: MAX_WEBHOOK_ENDPOINTS })
    return endpoint
  })

/** The caller's endpoints in its environment, oldest first. */
export const listWebhookEndpoints = (scope: MerchantScope) =>
  Effect.flatMap(WebhookEndpointRepository, (repository) => repository.list(scope.merchant.id, scope.environment))

/** One of the caller's endpoints; another merchant's or environment's is not found. */
export const getWebhookEndpoint = (scope: MerchantScope, id: string) =>
  Effect.flatMap(
    Effect.flatMap(WebhookEndpointRepository, (repository) => repository.find(scope.merchant.id, scope.environment, id)),
    Option.match({ onNone: () => Effect.fail(new WebhookEndpointNotFound()), onSome: Effect.succeed })
  )

/** Changes what is given (url, events, description, status) under the rules of a new endpoint; the rest stays. */
export const updateWebhookEndpoint = (scope: MerchantScope, id: string, update: WebhookEndpointUpdate) =>
  Effect.gen(function*() {
    yield* getWebhookEndpoint(scope, id)
    const problems: Problems = {}
    if (update.url !== undefined) yield* urlProblems(update.url, problems)
    if (update.events !== undefined) eventProblems(update.events, problems)
    descriptionProblems(update.description, problems)
    yield* refuseAny(problems)
    const changes: WebhookEndpointChanges = {
      ...(update.url !== undefined ? { url: update.url } : {}),
      ...(update.events !== undefined ? { events: distinct(update.events) } : {}),
      ...(update.description !== undefined ? { description: update.description } : {}),
      ...(update.status !== undefined ? { status: update.status } : {}),
      at: yield* now
    }
    const updated = yield* (yield* WebhookEndpointRepository).update(scope.merchant.id, scope.environment, id, changes)
    return yield* Option.match(updated, { onNone: () => Effect.fail(new WebhookEndpointNotFound()), onSome: Effect.succeed })
  })

/** Deletes one of the caller's endpoints: nothing new is queued for it; what is queued still goes out. */
export const deleteWebhookEndpoint = (scope: MerchantScope, id: string) =>
  Effect.gen(function*() {
    const removed = yield* (yield* WebhookEndpointRepository).remove(scope.merchant.id, scope.environment, id)
    if (!removed) return yield* new WebhookEndpointNotFound()
  })
