import { HttpRouter } from "@effect/platform"
import { Effect } from "effect"
import { MerchantStatus } from "../../../core/merchants/merchant.js"
import type { AmountInput } from "../../../core/money/parse.js"
import { createMerchant, issueCredentials, listMerchants, replaceCurrencies, requireMerchant, updateMerchant } from "../../../core/merchants/merchant-admin.js"
import { MerchantId } from "../../../core/shared/ids.js"
import { adminEndpoint } from "../endpoint/admin-endpoint.js"
import { created, ok } from "../response/api-response.js"
import { withoutUndefined } from "../request/body-fields.js"
import { createMerchantBody, issueCredentialsBody, replaceCurrenciesBody, updateMerchantBody } from "../contract/admin-contracts.js"
import { validBody } from "../contract/read-body.js"
import type { IssuedCredentials, MerchantCurrencies, MerchantPage } from "../contract/admin-resources.js"
import { merchantIdInPath, merchantStatusParameter } from "../contract/parameters.js"
import { listQuery, pageJson } from "../request/page-query.js"
import { merchantJson } from "../response/serializers.js"


const merchantId = Effect.map(merchantIdInPath.read, MerchantId)

const merchantInput = <N extends string | undefined>(body: {
  readonly name: N
  readonly status: MerchantStatus | undefined
  readonly fee_percent: AmountInput | undefined
  readonly fee_fixed: AmountInput | undefined
}) => ({ name: body.name, status: body.status, feePercent: body.fee_percent, feeFixed: body.fee_fixed })

export const adminMerchantRoutes = HttpRouter.empty.pipe(
  HttpRouter.post(
    "/merchants",
    adminEndpoint(Effect.gen(function*() {
      const input = merchantInput(yield* validBody(createMerchantBody))
      return created(merchantJson(yield* createMerchant({ ...withoutUndefined(input), name: input.name })))
    }))
  ),
  HttpRouter.get(
    "/merchants",
    adminEndpoint(Effect.gen(function*() {
      const query = yield* listQuery
      const page = query.page()
      const status = merchantStatusParameter.read(query)
      yield* query.done(undefined)
      const merchants = yield* listMerchants({ ...page, ...(status !== undefined ? { status } : {}) })
      return ok(pageJson(merchants, merchantJson) satisfies typeof MerchantPage.Type)
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
      const input = merchantInput(yield* validBody(updateMerchantBody))
      return ok(merchantJson(yield* updateMerchant(id, withoutUndefined(input))))
    }))
  ),
  HttpRouter.post(
    "/merchants/:id/credentials",
    adminEndpoint(Effect.gen(function*() {
      const id = yield* merchantId
      const { environment } = yield* validBody(issueCredentialsBody)
      const issued = yield* issueCredentials(id, environment)
      return created({
        environment: issued.environment,
        merchant_key: issued.merchantKey,
        api_key: issued.apiKey,
        client_secret: issued.clientSecret,
        webhook_secret: issued.webhookSecret
      } satisfies typeof IssuedCredentials.Type)
    }))
  ),
  HttpRouter.put(
    "/merchants/:id/currencies",
    adminEndpoint(Effect.gen(function*() {
      const id = yield* merchantId
      const { currency_codes } = yield* validBody(replaceCurrenciesBody)
      return ok({ merchant_id: id, currency_codes: yield* replaceCurrencies(id, currency_codes) } satisfies typeof MerchantCurrencies.Type)
    }))
  )
)
