import * as Effect from "effect/Effect"
import { createGateway, listGateways, updateGateway } from "../../../core/gateways/gateway-admin.js"
import { GatewayId } from "../../../core/shared/ids.js"
import { endpoint } from "../endpoint/endpoint.js"
import { withoutUndefined } from "../request/body-fields.js"
import { createGatewayBody, updateGatewayBody } from "../contract/admin-contracts.js"
import * as Resources from "../contract/admin-resources.js"
import { gatewayIdInPath } from "../contract/parameters.js"
import { validBody } from "../contract/read-body.js"
import { gatewayJson } from "../response/serializers.js"

const gatewayId = Effect.map(gatewayIdInPath.read, GatewayId)

const create = endpoint({
  method: "post",
  path: "/admin/v1/gateways",
  operationId: "createGateway",
  summary: "Create a gateway served by a plugin",
  tag: "Admin: gateways",
  security: "admin",
  body: createGatewayBody,
  success: { status: 201, description: "The gateway (its config is never shown).", schema: Resources.Gateway },
  errors: ["GatewayCodeTaken", "UnknownGatewayPlugin", "PluginCallFailed"],
  handler: Effect.gen(function*() {
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
    return gatewayJson(gateway)
  })
})

const list = endpoint({
  method: "get",
  path: "/admin/v1/gateways",
  operationId: "listGateways",
  summary: "Every gateway",
  tag: "Admin: gateways",
  security: "admin",
  success: { status: 200, description: "The gateways.", schema: Resources.GatewayList },
  handler: Effect.map(listGateways, (gateways) => ({ data: gateways.map(gatewayJson) }))
})

const update = endpoint({
  method: "patch",
  path: "/admin/v1/gateways/{id}",
  operationId: "updateGateway",
  summary: "Change a gateway",
  tag: "Admin: gateways",
  security: "admin",
  parameters: [gatewayIdInPath],
  body: updateGatewayBody,
  success: { status: 200, description: "The gateway.", schema: Resources.Gateway },
  errors: ["GatewayNotFound", "UnknownGatewayPlugin", "PluginCallFailed"],
  handler: Effect.gen(function*() {
    const id = yield* gatewayId
    const body = yield* validBody(updateGatewayBody)
    return gatewayJson(yield* updateGateway(id, withoutUndefined(body)))
  })
})

/** docs/admin-api.md, gateways. */
export const adminGatewayEndpoints = [create, list, update] as const
