import { type Block, block, inBlock, parseAddress } from "./ip-address.js"

/**
 * Which addresses a merchant's webhook URL may reach. A webhook URL is attacker-controlled input
 * (any merchant can set one), so anything that is not a public unicast address is refused: the
 * host's own services, its private network and the cloud metadata endpoints above all.
 */

interface Rule {
  readonly range: Block
  /** A reason, or how to find the IPv4 address embedded in this IPv6 range. */
  readonly verdict: string | { readonly embeddedShift: bigint }
}

const rule = (cidr: string, verdict: Rule["verdict"]): Rule => ({ range: block(cidr), verdict })

// First match wins: single addresses before the blocks that contain them.
const ipv4Rules: ReadonlyArray<Rule> = [
  rule("169.254.169.254/32", "metadata"), // AWS, GCP, Azure, OCI instance metadata
  rule("100.100.100.200/32", "metadata"), // Alibaba Cloud metadata, inside CGNAT space
  rule("168.63.129.16/32", "metadata"), // Azure wireserver: a public-looking address only the platform answers
  rule("255.255.255.255/32", "broadcast"),
  rule("0.0.0.0/8", "unspecified"), // "this network"; Linux connects 0.0.0.0 to the local host
  rule("10.0.0.0/8", "private"),
  rule("100.64.0.0/10", "cgnat"),
  rule("127.0.0.0/8", "loopback"),
  rule("169.254.0.0/16", "link-local"),
  rule("172.16.0.0/12", "private"),
  rule("192.0.0.0/24", "reserved"), // IETF protocol assignments
  rule("192.0.2.0/24", "documentation"),
  rule("192.88.99.0/24", "reserved"), // deprecated 6to4 relay anycast
  rule("192.168.0.0/16", "private"),
  rule("198.18.0.0/15", "benchmarking"),
  rule("198.51.100.0/24", "documentation"),
  rule("203.0.113.0/24", "documentation"),
  rule("224.0.0.0/4", "multicast"),
  rule("240.0.0.0/4", "reserved")
]

const embeddedLow32 = { embeddedShift: 0n }

const ipv6Rules: ReadonlyArray<Rule> = [
  rule("::/128", "unspecified"),
  rule("::1/128", "loopback"),
  // The kernel sends these to the embedded IPv4 address, so that address decides.
  rule("::ffff:0:0/96", embeddedLow32),
  // NAT64: DNS64 resolvers hand these out for every IPv4-only host on IPv6-only networks, so a public
  // embedded address must stay reachable while a private one is refused.
  rule("64:ff9b::/96", embeddedLow32),
  rule("64:ff9b:1::/48", "reserved"), // local-use NAT64: translates to whatever the operator chose
  rule("::/96", "reserved"), // deprecated IPv4-compatible addresses
  rule("100::/64", "reserved"), // discard-only
  rule("2001::/32", "reserved"), // Teredo: the client address is obfuscated, so it cannot be checked
  rule("2001:2::/48", "benchmarking"),
  rule("2001:10::/28", "reserved"), // ORCHID
  rule("2001:20::/28", "reserved"), // ORCHIDv2
  rule("2001:db8::/32", "documentation"),
  rule("3fff::/20", "documentation"),
  rule("2002::/16", { embeddedShift: 80n }), // 6to4: 2002:AABB:CCDD::/48 carries AA.BB.CC.DD
  rule("fd00:ec2::254/128", "metadata"), // AWS metadata over IPv6
  rule("fc00::/7", "ipv6 unique-local"),
  rule("fe80::/10", "link-local"),
  rule("fec0::/10", "ipv6 site-local"),
  rule("ff00::/8", "multicast")
]

// Only 2000::/3 is allocated as global unicast; anything else left unmatched above is unassigned.
const globalUnicast = block("2000::/3")

const firstMatch = (value: bigint, rules: ReadonlyArray<Rule>): Rule | undefined =>
  rules.find((candidate) => inBlock(value, candidate.range))

const classifyIpv4 = (value: bigint): string | undefined => {
  const verdict = firstMatch(value, ipv4Rules)?.verdict
  return typeof verdict === "string" ? verdict : undefined
}

const classifyIpv6 = (value: bigint): string | undefined => {
  const match = firstMatch(value, ipv6Rules)
  if (match === undefined) return inBlock(value, globalUnicast) ? undefined : "reserved"
  if (typeof match.verdict === "string") return match.verdict
  return classifyIpv4((value >> match.verdict.embeddedShift) & 0xffffffffn)
}

/**
 * Why an address must not be a webhook target, or undefined when it is a public unicast address.
 * Text that is not an IP address is refused too: this guard fails closed.
 */
export const isForbiddenAddress = (address: string): string | undefined => {
  const parsed = parseAddress(address)
  if (parsed === undefined) return "not an IP address"
  return parsed.family === 4 ? classifyIpv4(parsed.value) : classifyIpv6(parsed.value)
}
