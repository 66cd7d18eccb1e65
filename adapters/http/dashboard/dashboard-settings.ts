import type { IncomingMessage } from "node:http"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import type { UserRole } from "../../../core/merchant-users/merchant-user.js"
import { DEFAULT_RETENTION_DAYS } from "../../../core/request-logs/request-log-purger.js"
import { hmacSha256 } from "../../../core/signing/hmac.js"

/** Who the platform says is looking at the dashboard, when the platform signs people in itself. */
export interface PlatformIdentity {
  readonly merchantId: number
  readonly userId: string
  readonly role: UserRole
}

/**
 * An embedding platform's own sign-in: its session decides who the merchant is, the kit never sees
 * its passwords. `authenticate` answers null for nobody signed in, and the visitor is sent to `signInUrl`.
 */
export interface PlatformSignIn {
  readonly authenticate: (request: IncomingMessage) => PlatformIdentity | null | Promise<PlatformIdentity | null>
  readonly signInUrl: string
}

export class DashboardSettings extends Context.Tag("merchant-payments/DashboardSettings")<DashboardSettings, {
  /** The path of the public base address ("" or "/payments"): every dashboard link and cookie is under it. */
  readonly basePath: string
  /** Cookies marked Secure: the public base address is https. */
  readonly secureCookies: boolean
  /** Keys for form tokens: the first signs, every one is accepted (a master key rotation loses no open form). */
  readonly formKeys: ReadonlyArray<Uint8Array>
  /** The platform's sign-in, when it supplies one; the kit's own merchant users otherwise. */
  readonly platform: PlatformSignIn | undefined
  /** How many days the request log keeps a call: the Logs page says it. */
  readonly requestLogRetentionDays: number
}>() {}

/** Form tokens are keyed apart from everything else the master key protects. */
const formKey = (masterKey: Uint8Array) => hmacSha256(masterKey, "merchant-payments/dashboard-form-token")

export const layer = (options: {
  readonly baseUrl: string
  readonly masterKey: Uint8Array
  readonly previousMasterKey?: Uint8Array | undefined
  readonly platform?: PlatformSignIn | undefined
  /** The purge's own setting (REQUEST_LOG_RETENTION_DAYS); its default when unset. */
  readonly requestLogRetentionDays?: number | undefined
}) => {
  const url = new URL(options.baseUrl)
  return Layer.succeed(DashboardSettings, DashboardSettings.of({
    basePath: url.pathname.replace(/\/+$/, ""),
    secureCookies: url.protocol === "https:",
    formKeys: [options.masterKey, ...(options.previousMasterKey === undefined ? [] : [options.previousMasterKey])].map(formKey),
    platform: options.platform,
    requestLogRetentionDays: options.requestLogRetentionDays ?? DEFAULT_RETENTION_DAYS
  }))
}
