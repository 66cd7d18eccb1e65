/** Every portal address is under this path; its session cookie is scoped to it. */
export const PORTAL_PATH = "/customer-portal"

/** The path of a single-use link (its token is a secret: the request log masks it, see request-log.ts). */
export const PORTAL_LINK_PREFIX = `${PORTAL_PATH}/session`

/** The link a merchant hands its customer, under the kit's public base address. */
export const portalLinkUrl = (baseUrl: string, token: string) => `${baseUrl}${PORTAL_LINK_PREFIX}/${token}`
