/**
 * Where a delivery goes, as fairness and logs see it: the URL's scheme, host and port, lower-cased.
 * Attempts in flight are capped per target, so one receiver that never answers holds only its own
 * share of senders; user info, path and query are left out (they may carry a merchant's tokens).
 */
export const deliveryTarget = (url: string): string => {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)/i.exec(url)
  if (match === null) return "(invalid URL)"
  const authority = match[2]!
  return `${match[1]!.toLowerCase()}${authority.slice(authority.lastIndexOf("@") + 1).toLowerCase()}`
}
