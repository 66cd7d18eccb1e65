import { HttpRouter } from "@effect/platform"
import { Effect, Either } from "effect"
import { GatewayType } from "../../../core/payments/gateway.js"
import { createGateway, listGateways, replaceMerchantGateways, updateGateway } from "../../../core/payments/gateway-admin.js"
import { GatewayId, MerchantId } from "../../../core/shared/ids.js"
import { adminEndpoint } from "../admin-endpoint.js"
import { created, ok } from "../api-response.js"
import { BodyFields, withoutUndefined } from "../body-fields.js"
import { plainJsonObject } from "../json-value.js"
import { pathId } from "../path-params.js"
import { jsonObjectBody } from "../request-body.js"
import { gatewayJson } from "../serializers.js"

const types = GatewayType.literals

const gatewayId = Effect.map(pathId("id", "Gateway"), GatewayId)
const merchantId = Effect.map(pathId("id", "Merchant"), MerchantId)

/** `config` is the plugin's own document: only its shape is checked here, its rules in the plugin. */
const readConfig = (body: Readonly<Record<string, unknown>>, fields: BodyFields): Readonly<Record<string, unknown>> | undefined => {
  const value = body["config"]
  if (value === undefined || value === null) return undefined
  return Either.getOrElse(plainJsonObject(value), (problem) => fields.fail("config", `The config field ${problem}.`))
}

export const adminGatewayRoutes = HttpRouter.empty.pipe(
  HttpRouter.post(
    "/gateways",
    adminEndpoint(Effect.gen(function*() {
      const body = yield* jsonObjectBody
      const fields = new BodyFields(body)
      const plugin = fields.string("plugin", { required: true, max: 32 })
      const name = fields.string("name", { required: true, max: 100, min: 1 })
      const currencyCode = fields.string("currency_code", { required: true, max: 10 })
      const method = fields.string("method", { required: true, max: 31 })
      const type = fields.oneOf("type", types)
      const active = fields.boolean("active")
      const config = readConfig(body, fields)
      yield* fields.done(() => undefined)
      const gateway = yield* createGateway({
        plugin: plugin!,
        name: name!,
        currencyCode: currencyCode!,
        method: method!,
        // Hosted checkout offers automatic gateways only, so that is what a new one is unless told.
        type: type ?? "automatic",
        active: active ?? true,
        ...(config !== undefined ? { config } : {})
      })
      return created(gatewayJson(gateway))
    }))
  ),
  HttpRouter.get(
    "/gateways",
    adminEndpoint(Effect.map(listGateways, (gateways) => ok({ data: gateways.map(gatewayJson) })))
  ),
  HttpRouter.patch(
    "/gateways/:id",
    adminEndpoint(Effect.gen(function*() {
      const id = yield* gatewayId
      const body = yield* jsonObjectBody
      const fields = new BodyFields(body)
      // Read every field before asking whether any failed.
      const input = {
        name: fields.string("name", { max: 100, min: 1 }),
        active: fields.boolean("active"),
        type: fields.oneOf("type", types),
        config: readConfig(body, fields)
      }
      const valid = yield* fields.done(() => withoutUndefined(input))
      return ok(gatewayJson(yield* updateGateway(id, valid)))
    }))
  ),
  HttpRouter.put(
    "/merchants/:id/gateways",
    adminEndpoint(Effect.gen(function*() {
      const id = yield* merchantId
      const fields = new BodyFields(yield* jsonObjectBody)
      const ids = fields.integerArray("gateway_ids", { required: true, maxItems: 200 })
      yield* fields.done(() => undefined)
      return ok({ merchant_id: id, gateway_ids: yield* replaceMerchantGateways(id, ids!.map(GatewayId)) })
    }))
  )
)
