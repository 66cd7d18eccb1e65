import * as Schema from "effect/Schema"
import type { Amount } from "../money/amount.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { IpnJsonStyle, IpnSignatureFormat } from "../webhooks/ipn-compatibility.js"

export const MerchantStatus = Schema.Literal("pending", "approved", "rejected", "disabled", "suspended")
export type MerchantStatus = typeof MerchantStatus.Type

export interface Merchant {
  readonly id: MerchantId
  readonly name: string
  readonly status: MerchantStatus
  /** How its webhooks' X-Signature and body are spelled for receivers that need it (core/webhooks/ipn-compatibility.ts). */
  readonly ipnSignatureFormat: IpnSignatureFormat
  readonly ipnJsonStyle: IpnJsonStyle
  /** Percent of each payment kept as fee, at the money scale (2.5 % = 2.5 units). */
  readonly feePercent: Amount
  /** Fixed fee per payment, in the payment's currency units. */
  readonly feeFixed: Amount
  /**
   * Charged from the wallet with each dispute opened on one of its payments, in the payment's
   * currency (rounded to its minor unit), never returned: what the gateway charges the platform.
   */
  readonly disputeFee: Amount
  readonly createdAt: Instant
  readonly updatedAt: Instant
}

export interface NewMerchant {
  readonly name: string
  readonly status: MerchantStatus
  readonly ipnSignatureFormat?: IpnSignatureFormat
  readonly ipnJsonStyle?: IpnJsonStyle
  readonly feePercent: Amount
  readonly feeFixed: Amount
  /** 0 when not given. */
  readonly disputeFee?: Amount
}

export interface MerchantPatch {
  readonly name?: string
  readonly status?: MerchantStatus
  readonly ipnSignatureFormat?: IpnSignatureFormat
  readonly ipnJsonStyle?: IpnJsonStyle
  readonly feePercent?: Amount
  readonly feeFixed?: Amount
  readonly disputeFee?: Amount
}

export class MerchantNotFound extends Schema.TaggedError<MerchantNotFound>()("MerchantNotFound", {
  merchantId: Schema.Number
}) {}
