/** An IP address as a number: IPv4 in 32 bits, IPv6 in 128 bits, so ranges are plain mask compares. */
export type ParsedAddress =
  | { readonly family: 4; readonly value: bigint }
  | { readonly family: 6; readonly value: bigint }

/**
 * Drops URL brackets and an IPv6 zone id (`fe80::1%eth0`, or `%25eth0` as URLs encode it): the zone
 * only picks the interface, the address and so its classification stay the same.
 */
export const bareAddress = (address: string): string => {
  const unbracketed = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address
  const zone = unbracketed.indexOf("%")
  return zone === -1 ? unbracketed : unbracketed.slice(0, zone)
}

// Four decimal octets, no leading zeros: "010" is octal to some parsers, so it is not an address here.
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/

const ipv4Value = (text: string): bigint | undefined =>
  IPV4.test(text) ? text.split(".").reduce((value, octet) => (value << 8n) | BigInt(Number(octet)), 0n) : undefined

/**
 * The 16-bit groups of one side of a `::`, a dotted IPv4 counting as two groups; only the address's
 * last piece may be dotted (`last`).
 */
const ipv6Groups = (side: string, last: boolean): Array<bigint> | undefined => {
  if (side === "") return []
  const groups: Array<bigint> = []
  const pieces = side.split(":")
  for (const [index, piece] of pieces.entries()) {
    if (piece.includes(".")) {
      const value = last && index === pieces.length - 1 ? ipv4Value(piece) : undefined
      if (value === undefined) return undefined
      groups.push(value >> 16n, value & 0xffffn)
    } else {
      if (!/^[0-9a-f]{1,4}$/i.test(piece)) return undefined
      groups.push(BigInt(parseInt(piece, 16)))
    }
  }
  return groups
}

const ipv6Value = (text: string): bigint | undefined => {
  const sides = text.split("::")
  if (sides.length > 2) return undefined
  const head = ipv6Groups(sides[0]!, sides.length === 1)
  const tail = sides.length === 2 ? ipv6Groups(sides[1]!, true) : []
  if (head === undefined || tail === undefined) return undefined
  const missing = 8 - head.length - tail.length
  // Without `::` every group must be written; with it, `::` stands for at least one zero group.
  if (sides.length === 1 ? missing !== 0 : missing < 1) return undefined
  const groups = [...head, ...Array<bigint>(missing).fill(0n), ...tail]
  return groups.reduce((value, group) => (value << 16n) | group, 0n)
}

/**
 * Parses an IPv4 or IPv6 address in the textual forms `node:net`'s isIP accepts (compressed,
 * uppercase, with a zone id or brackets); undefined when it is not an IP address. Written here, not
 * borrowed from `node:net`, so the one policy can run in core, on the request path as at delivery.
 */
export const parseAddress = (address: string): ParsedAddress | undefined => {
  const bare = bareAddress(address)
  if (bare.includes(":")) {
    const value = ipv6Value(bare)
    return value === undefined ? undefined : { family: 6, value }
  }
  const value = ipv4Value(bare)
  return value === undefined ? undefined : { family: 4, value }
}

/** A CIDR block as a base value and a prefix length, for `inBlock`. */
export interface Block {
  readonly base: bigint
  readonly prefix: number
  readonly bits: 32 | 128
}

/** Builds a block from CIDR text at module load; a typo in a rule table fails loudly, not open. */
export const block = (cidr: string): Block => {
  const [text, prefixText] = cidr.split("/")
  const parsed = parseAddress(text ?? "")
  const prefix = Number(prefixText)
  const bits = parsed?.family === 4 ? 32 : 128
  if (parsed === undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > bits) {
    throw new Error(`invalid CIDR block: ${cidr}`)
  }
  return { base: parsed.value, prefix, bits }
}

export const inBlock = (value: bigint, range: Block): boolean => {
  const shift = BigInt(range.bits - range.prefix)
  return value >> shift === range.base >> shift
}
