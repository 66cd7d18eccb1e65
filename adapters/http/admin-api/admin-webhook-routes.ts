import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { MerchantId } from "../../../core/shared/ids.js"
import { toIsoString } from "../../../core/shared/instant.js"
import type { WebhookDelivery } from "../../../core/webhooks/delivery.js"
import { deliveryWithAttempts, failingTargets, recentDeliveries, redeliver } from "../../../core/webhooks/delivery-admin.js"
import { endpoint } from "../endpoint/endpoint.js"
import * as Resources from "../contract/admin-resources.js"
import { deliveryIdInPath, deliveryListQuery, targetMerchantParameter } from "../contract/parameters.js"
import { queryOf } from "../contract/query-contract.js"
import { ResourceNotFound } from "../response/edge-errors.js"
import { attemptJson, redeliveryAnswer } from "../response/delivery-serializers.js"

const deliveryJson = (delivery: WebhookDelivery): typeof Resources.WebhookDelivery.Type => ({
  id: delivery.id,
  merchant_id: delivery.merchantId,
  environment: delivery.environment,
  event: delivery.event,
  url: delivery.url,
  status: delivery.status,
  attempts: delivery.attempts,
  last_status_code: delivery.lastStatusCode,
  last_error: delivery.lastError,
  next_attempt_at: delivery.nextAttemptAt === null ? null : toIsoString(delivery.nextAttemptAt),
  created_at: toIsoString(delivery.createdAt),
  updated_at: toIsoString(delivery.updatedAt)
})

const notFound = new ResourceNotFound({ resource: "Webhook delivery" })

const list = endpoint({
  method: "get",
  path: "/admin/v1/webhook-deliveries",
  operationId: "listWebhookDeliveries",
  summary: "The most recent 200 deliveries, newest first",
  tag: "Admin: webhooks",
  security: "admin",
  query: deliveryListQuery,
  success: { status: 200, description: "The deliveries.", schema: Resources.WebhookDeliveryList },
  errors: ["ValidationFailed"],
  handler: ({ merchant_id: merchantId, ...filter }) => Effect.gen(function*() {
    const deliveries = yield* recentDeliveries({ ...filter, ...(merchantId !== undefined ? { merchantId: MerchantId(merchantId) } : {}) })
    return { data: deliveries.map(deliveryJson) }
  })
})

const get = endpoint({
  method: "get",
  path: "/admin/v1/webhook-deliveries/{id}",
  operationId: "getWebhookDelivery",
  summary: "One delivery with its attempt log",
  tag: "Admin: webhooks",
  security: "admin",
  parameters: [deliveryIdInPath],
  success: { status: 200, description: "The delivery.", schema: Resources.WebhookDeliveryDetail },
  errors: ["ResourceNotFound"],
  handler: Effect.gen(function*() {
    const found = yield* deliveryWithAttempts(yield* deliveryIdInPath.read)
    if (Option.isNone(found)) return yield* notFound
    return { ...deliveryJson(found.value.delivery), attempt_log: found.value.attempts.map(attemptJson) }
  })
})

const again = endpoint({
  method: "post",
  path: "/admin/v1/webhook-deliveries/{id}/redeliver",
  operationId: "redeliverWebhook",
  summary: "Send a delivery again",
  description: "Same body and event id, a fresh budget of attempts, due now.",
  tag: "Admin: webhooks",
  security: "admin",
  parameters: [deliveryIdInPath],
  success: { status: 200, description: "The delivery, pending again.", schema: Resources.WebhookDelivery },
  errors: ["ResourceNotFound", "DeliveryInFlight"],
  handler: Effect.gen(function*() {
    return yield* redeliveryAnswer(yield* redeliver(yield* deliveryIdInPath.read), "Webhook delivery", deliveryJson)
  })
})

const targets = endpoint({
  method: "get",
  path: "/admin/v1/webhook-targets",
  operationId: "listFailingWebhookTargets",
  summary: "Targets failing every attempt now, paused or not",
  description: "A merchant's target (a URL's origin, per environment) is listed from its first failed attempt until one succeeds " +
    "or the merchant recovers; it is paused once it has failed for WEBHOOK_PAUSE_AFTER_SECONDS.",
  tag: "Admin: webhooks",
  security: "admin",
  query: queryOf({ merchant_id: targetMerchantParameter }),
  success: { status: 200, description: "The failing targets, oldest failure first.", schema: Resources.FailingWebhookTargetList },
  handler: ({ merchant_id: merchantId }) => Effect.gen(function*() {
    const failing = yield* failingTargets(merchantId === undefined ? {} : { merchantId: MerchantId(merchantId) })
    return {
      data: failing.map((target) => ({
        merchant_id: target.merchantId,
        environment: target.environment,
        target: target.target,
        failing_since: toIsoString(target.failingSince),
        paused_at: target.pausedAt === null ? null : toIsoString(target.pausedAt)
      }))
    }
  })
})

/** docs/admin-api.md, webhook deliveries and targets. */
export const adminWebhookEndpoints = [list, get, again, targets] as const
