import { HttpRouter } from "@effect/platform"
import { Effect } from "effect"
import { createGateway, listGateways, replaceMerchantGateways, updateGateway } from "../../../core/gateways/gateway-admin.js"
import { GatewayId, MerchantId } from "../../../core/shared/ids.js"
import { adminEndpoint } from "../endpoint/admin-endpoint.js"
import { created, ok } from "../response/api-response.js"
import { withoutUndefined } from "../request/body-fields.js"
import { createGatewayBody, replaceMerchantGatewaysBody, updateGatewayBody } from "../contract/admin-contracts.js"
import { gatewayIdInPath, merchantIdInPath } from "../contract/parameters.js"
import { validBody } from "../contract/read-body.js"
import type { MerchantGateways } from "../contract/admin-resources.js"
import { gatewayJson } from "../response/serializers.js"

const gatewayId = Effect.map(gatewayIdInPath.read, GatewayId)
const merchantId = Effect.map(merchantIdInPath.read, MerchantId)

export const adminGatewayRoutes = HttpRouter.empty.pipe(
  HttpRouter.post(
    "/gateways",
    adminEndpoint(Effect.gen(function*() {
      // `config` is the plugin's own document: only its shape is checked here, its rules in the plugin.
      const body = yield* validBody(createGatewayBody)
      const gateway = yield* createGateway({
        plugin: body.plugin,
        name: body.name,
        currencyCode: body.currency_code,
        method: body.method,
        type: body.type,
        active: body.active,
        ...(body.config !== undefined ? { config: body.config } : {})
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
      const body = yield* validBody(updateGatewayBody)
      return ok(gatewayJson(yield* updateGateway(id, withoutUndefined(body))))
    }))
  ),
  HttpRouter.put(
    "/merchants/:id/gateways",
    adminEndpoint(Effect.gen(function*() {
      const id = yield* merchantId
      const { gateway_ids } = yield* validBody(replaceMerchantGatewaysBody)
      const selected = yield* replaceMerchantGateways(id, gateway_ids.map(GatewayId))
      return ok({ merchant_id: id, gateway_ids: selected } satisfies typeof MerchantGateways.Type)
    }))
  )
)
