import { HttpRouter } from "@effect/platform"
import { Effect } from "effect"
import { environments } from "../../../core/merchants/environment.js"
import { MerchantStatus } from "../../../core/merchants/merchant.js"
import { createMerchant, issueCredentials, listMerchants, replaceCurrencies, requireMerchant, updateMerchant } from "../../../core/merchants/merchant-admin.js"
import { MerchantId } from "../../../core/shared/ids.js"
import { adminEndpoint } from "../admin-endpoint.js"
import { created, ok } from "../api-response.js"
import { BodyFields, withoutUndefined } from "../body-fields.js"
import { listQuery, pageJson } from "../page-query.js"
import { pathId } from "../path-params.js"
import { jsonObjectBody } from "../request-body.js"
import { merchantJson } from "../serializers.js"

const statuses = MerchantStatus.literals

const merchantId = Effect.map(pathId("id", "Merchant"), MerchantId)

const readMerchantInput = (fields: BodyFields, nameRequired: boolean) => ({
  name: fields.string("name", { required: nameRequired, max: 100, min: 1 }),
  status: fields.oneOf("status", statuses),
  feePercent: fields.amount("fee_percent"),
  feeFixed: fields.amount("fee_fixed")
})

export const adminMerchantRoutes = HttpRouter.empty.pipe(
  HttpRouter.post(
    "/merchants",
    adminEndpoint(Effect.gen(function*() {
      const fields = new BodyFields(yield* jsonObjectBody)
      const input = readMerchantInput(fields, true)
      const valid = yield* fields.done(() => ({ ...withoutUndefined(input), name: input.name! }))
      return created(merchantJson(yield* createMerchant(valid)))
    }))
  ),
  HttpRouter.get(
    "/merchants",
    adminEndpoint(Effect.gen(function*() {
      const query = yield* listQuery
      const page = query.page()
      const status = query.oneOf("status", statuses)
      yield* query.done(undefined)
      return ok(pageJson(yield* listMerchants({ ...page, ...(status !== undefined ? { status } : {}) }), merchantJson))
    }))
  ),
  HttpRouter.get(
    "/merchants/:id",
    adminEndpoint(Effect.map(Effect.flatMap(merchantId, requireMerchant), (merchant) => ok(merchantJson(merchant))))
  ),
  HttpRouter.patch(
    "/merchants/:id",
    adminEndpoint(Effect.gen(function*() {
      const id = yield* merchantId
      const fields = new BodyFields(yield* jsonObjectBody)
      // Read every field before asking whether any failed.
      const input = readMerchantInput(fields, false)
      const valid = yield* fields.done(() => withoutUndefined(input))
      return ok(merchantJson(yield* updateMerchant(id, valid)))
    }))
  ),
  HttpRouter.post(
    "/merchants/:id/credentials",
    adminEndpoint(Effect.gen(function*() {
      const id = yield* merchantId
      const fields = new BodyFields(yield* jsonObjectBody)
      const environment = fields.oneOf("environment", environments, { required: true })
      yield* fields.done(() => undefined)
      const issued = yield* issueCredentials(id, environment!)
      return created({
        environment: issued.environment,
        merchant_key: issued.merchantKey,
        api_key: issued.apiKey,
        client_secret: issued.clientSecret,
        webhook_secret: issued.webhookSecret
      })
    }))
  ),
  HttpRouter.put(
    "/merchants/:id/currencies",
    adminEndpoint(Effect.gen(function*() {
      const id = yield* merchantId
      const fields = new BodyFields(yield* jsonObjectBody)
      const codes = fields.stringArray("currency_codes", { required: true, maxItems: 200 })
      yield* fields.done(() => undefined)
      return ok({ merchant_id: id, currency_codes: yield* replaceCurrencies(id, codes!) })
    }))
  )
)
