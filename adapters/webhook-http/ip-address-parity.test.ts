import { isIP } from "node:net"
import { describe, expect, it } from "vitest"
import { bareAddress, parseAddress } from "../../core/webhooks/ip-address.js"

// Core parses addresses without node:net (the dependency rule); delivery relies on it accepting
// exactly what node:net accepts, so the two are compared here, at the adapter that connects.
const samples = [
  "0.0.0.0", "1.2.3.4", "255.255.255.255", "256.0.0.1", "01.2.3.4", "1.2.3", "1.2.3.4.", "1..3.4", "1.2.3.-4", "١.٢.٣.٤",
  "::", "::1", "1::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "1::2:3:4:5:6:7:8", "::1:2:3:4:5:6:7",
  "1:2:3:4:5:6:1.2.3.4", "::1.2.3.4", "::ffff:1.2.3.4", "1.2.3.4::", "1:2:3:4:5:6:7:1.2.3.4", "1.2.3.4:1::", "::ffff:1.2.3.04",
  "fe80::1", "FE80::A", "12345::", "g::1", ":1::", "1:::2", ":::", "1::2::3", "::ffff:", "[::1]", "[1.2.3.4]", "", " ", "x"
]

describe("parseAddress", () => {
  it.each(samples)("agrees with node:net isIP on %j", (text) => {
    const parsed = parseAddress(text)
    expect(parsed?.family ?? 0).toBe(isIP(bareAddress(text)))
  })

  it("reads the value of each form", () => {
    expect(parseAddress("127.0.0.1")).toEqual({ family: 4, value: 0x7f000001n })
    expect(parseAddress("::ffff:127.0.0.1")).toEqual({ family: 6, value: 0xffff7f000001n })
    expect(parseAddress("[fe80::1%25eth0]")).toEqual({ family: 6, value: (0xfe80n << 112n) | 1n })
  })
})
