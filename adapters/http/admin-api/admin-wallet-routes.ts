import * as Effect from "effect/Effect"
import { MerchantId, WalletId } from "../../../core/shared/ids.js"
import { adjustWallet, createWallet, listWallets, setWalletActive } from "../../../core/wallets/wallet-admin.js"
import { endpoint } from "../endpoint/endpoint.js"
import { adjustWalletBody, createWalletBody, updateWalletBody } from "../contract/admin-contracts.js"
import * as Resources from "../contract/admin-resources.js"
import { merchantIdInPath, walletIdInPath } from "../contract/parameters.js"
import { validBody } from "../contract/read-body.js"
import { adjustmentJson, walletJson } from "../response/serializers.js"

const merchantId = Effect.map(merchantIdInPath.read, MerchantId)
const walletId = Effect.map(walletIdInPath.read, WalletId)

const create = endpoint({
  method: "post",
  path: "/admin/v1/merchants/{id}/wallets",
  operationId: "createWallet",
  summary: "Open a wallet",
  tag: "Admin: wallets",
  security: "admin",
  parameters: [merchantIdInPath],
  body: createWalletBody,
  success: { status: 201, description: "The wallet.", schema: Resources.Wallet },
  errors: ["MerchantNotFound", "WalletExists"],
  handler: Effect.gen(function*() {
    const id = yield* merchantId
    const body = yield* validBody(createWalletBody)
    return walletJson(yield* createWallet(id, body.currency_code, body.environment))
  })
})

const list = endpoint({
  method: "get",
  path: "/admin/v1/merchants/{id}/wallets",
  operationId: "listWallets",
  summary: "The merchant's wallets",
  tag: "Admin: wallets",
  security: "admin",
  parameters: [merchantIdInPath],
  success: { status: 200, description: "Every wallet of the merchant.", schema: Resources.WalletList },
  errors: ["MerchantNotFound"],
  handler: Effect.map(Effect.flatMap(merchantId, listWallets), (wallets) => ({ data: wallets.map(walletJson) }))
})

const update = endpoint({
  method: "patch",
  path: "/admin/v1/wallets/{id}",
  operationId: "updateWallet",
  summary: "Activate or deactivate a wallet",
  tag: "Admin: wallets",
  security: "admin",
  parameters: [walletIdInPath],
  body: updateWalletBody,
  success: { status: 200, description: "The wallet.", schema: Resources.Wallet },
  errors: ["WalletNotFound"],
  handler: Effect.gen(function*() {
    const id = yield* walletId
    const { active } = yield* validBody(updateWalletBody)
    return walletJson(yield* setWalletActive(id, active))
  })
})

const adjust = endpoint({
  method: "post",
  path: "/admin/v1/wallets/{id}/adjustments",
  operationId: "adjustWallet",
  summary: "A manual ledger entry",
  tag: "Admin: wallets",
  security: "admin",
  parameters: [walletIdInPath],
  body: adjustWalletBody,
  success: { status: 201, description: "The entry and the balance after it.", schema: Resources.Adjustment },
  errors: ["WalletNotFound", "InsufficientBalance", "BalanceOverflow"],
  handler: Effect.gen(function*() {
    const id = yield* walletId
    const { amount, reason } = yield* validBody(adjustWalletBody)
    const { entry, currency } = yield* adjustWallet(id, amount, reason)
    return adjustmentJson(entry, currency)
  })
})

/** docs/admin-api.md, wallets. */
export const adminWalletEndpoints = [create, list, update, adjust] as const
