import * as Brand from "effect/Brand"

/** Integer ids the API shows as numbers (merchants, wallets, gateways). */
export type MerchantId = number & Brand.Brand<"MerchantId">
export const MerchantId = Brand.nominal<MerchantId>()

export type WalletId = number & Brand.Brand<"WalletId">
export const WalletId = Brand.nominal<WalletId>()

export type GatewayId = number & Brand.Brand<"GatewayId">
export const GatewayId = Brand.nominal<GatewayId>()
