import * as Schema from "effect/Schema"
import type { GatewayId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"

export const GatewayType = Schema.Literal("automatic", "manual")
export type GatewayType = typeof GatewayType.Type

/** A deposit method: one plugin serving one currency, shown on hosted checkout when eligible. */
export interface Gateway {
  readonly id: GatewayId
  readonly plugin: string
  readonly name: string
  /** `<method>-<currency>` in lower case, unique. */
  readonly code: string
  readonly method: string
  readonly currency: string
  readonly type: GatewayType
  readonly active: boolean
  /** The plugin's own settings, validated by the plugin's config schema. */
  readonly config: Readonly<Record<string, unknown>>
  readonly createdAt: Instant
  readonly updatedAt: Instant
}

export type NewGateway = Omit<Gateway, "id" | "code" | "createdAt" | "updatedAt">

export interface GatewayPatch {
  readonly name?: string
  readonly type?: GatewayType
  readonly active?: boolean
  readonly config?: Readonly<Record<string, unknown>>
}

export const gatewayCode = (method: string, currency: string): string => `${method}-${currency}`.toLowerCase()

export class GatewayCodeTaken extends Schema.TaggedError<GatewayCodeTaken>()("GatewayCodeTaken", {
  code: Schema.String
}) {}

export class GatewayNotFound extends Schema.TaggedError<GatewayNotFound>()("GatewayNotFound", {
  gatewayId: Schema.Number
}) {}
