import { describe, expect, it } from "vitest"
import { isForbiddenAddress } from "./address-policy.js"

const ipv4Forbidden: ReadonlyArray<readonly [string, string]> = [
  ["0.0.0.0", "unspecified"],
  ["0.255.255.255", "unspecified"],
  ["10.0.0.0", "private"],
  ["10.255.255.255", "private"],
  ["100.64.0.0", "cgnat"],
  ["100.127.255.255", "cgnat"],
  ["100.100.100.200", "metadata"],
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["169.254.0.1", "link-local"],
  ["169.254.169.253", "link-local"],
  ["169.254.169.254", "metadata"],
  ["169.254.255.255", "link-local"],
  ["168.63.129.16", "metadata"],
  ["172.16.0.0", "private"],
  ["172.31.255.255", "private"],
  ["192.0.0.1", "reserved"],
  ["192.0.0.255", "reserved"],
  ["192.0.2.1", "documentation"],
  ["192.88.99.1", "reserved"],
  ["192.168.0.1", "private"],
  ["192.168.255.255", "private"],
  ["198.18.0.1", "benchmarking"],
  ["198.19.255.255", "benchmarking"],
  ["198.51.100.7", "documentation"],
  ["203.0.113.9", "documentation"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.255", "multicast"],
  ["240.0.0.1", "reserved"],
  ["255.255.255.254", "reserved"],
  ["255.255.255.255", "broadcast"]
]

const ipv4Public: ReadonlyArray<string> = [
  "1.1.1.1",
  "8.8.8.8",
  "9.255.255.255", // just below 10/8
  "11.0.0.0", // just above 10/8
  "100.63.255.255", // just below CGNAT
  "100.128.0.0", // just above CGNAT
  "126.255.255.255",
  "128.0.0.0",
  "169.253.255.255",
  "169.255.0.0",
  "172.15.255.255", // just below 172.16/12
  "172.32.0.0", // just above 172.16/12
  "192.0.1.1",
  "192.0.3.1",
  "192.88.98.255",
  "192.167.255.255",
  "192.169.0.0",
  "198.17.255.255",
  "198.20.0.0",
  "198.51.99.255",
  "203.0.112.255",
  "223.255.255.255" // last unicast before multicast
]

const ipv6Forbidden: ReadonlyArray<readonly [string, string]> = [
  ["::", "unspecified"],
  ["0:0:0:0:0:0:0:0", "unspecified"],
  ["::1", "loopback"],
  ["0:0:0:0:0:0:0:1", "loopback"],
  ["0000:0000:0000:0000:0000:0000:0000:0001", "loopback"],
  ["[::1]", "loopback"],
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["::FFFF:7F00:0001", "loopback"],
  ["0:0:0:0:0:ffff:127.0.0.1", "loopback"],
  ["::ffff:10.1.2.3", "private"],
  ["::ffff:a9fe:a9fe", "metadata"],
  ["::ffff:169.254.169.254", "metadata"],
  ["::ffff:0.0.0.0", "unspecified"],
  ["64:ff9b::127.0.0.1", "loopback"],
  ["64:ff9b::a9fe:a9fe", "metadata"],
  ["64:ff9b::c0a8:101", "private"],
  ["64:ff9b:1::1", "reserved"],
  ["::127.0.0.1", "reserved"], // IPv4-compatible
  ["::8.8.8.8", "reserved"],
  ["::2", "reserved"],
  ["100::1", "reserved"],
  ["100::ffff:ffff:ffff:ffff", "reserved"],
  ["2001::1", "reserved"], // Teredo
  ["2001:2::1", "benchmarking"],
  ["2001:10::1", "reserved"],
  ["2001:20::1", "reserved"],
  ["2001:db8::1", "documentation"],
  ["2001:DB8:FFFF::1", "documentation"],
  ["3fff::1", "documentation"],
  ["2002:7f00:1::", "loopback"], // 6to4 of 127.0.0.1
  ["2002:a9fe:a9fe::1", "metadata"],
  ["2002:c0a8:0101:1::1", "private"],
  ["fc00::1", "ipv6 unique-local"],
  ["fd12:3456:789a::1", "ipv6 unique-local"],
  ["fd00:ec2::254", "metadata"],
  ["fd00:ec2::253", "ipv6 unique-local"],
  ["fe80::1", "link-local"],
  ["FE80::1", "link-local"],
  ["fe80::1%eth0", "link-local"],
  ["fe80::1%25eth0", "link-local"],
  ["[fe80::1%eth0]", "link-local"],
  ["febf:ffff::1", "link-local"],
  ["fec0::1", "ipv6 site-local"],
  ["feff::1", "ipv6 site-local"],
  ["ff02::1", "multicast"],
  ["ff05::1:3", "multicast"],
  ["4000::1", "reserved"], // outside 2000::/3: unallocated
  ["1::1", "reserved"],
  ["e000::1", "reserved"]
]

const ipv6Public: ReadonlyArray<string> = [
  "2001:4860:4860::8888",
  "2606:4700:4700::1111",
  "2A00:1450:4001:80B::200E",
  "::ffff:8.8.8.8", // IPv4-mapped public
  "::ffff:808:808",
  "64:ff9b::8.8.8.8", // NAT64 of a public address
  "2002:808:808::1", // 6to4 of a public address
  "2001:db7:ffff::1", // just below documentation
  "2001:db9::1", // just above documentation
  "2001:1::1", // inside 2001::/23 but outside the refused blocks
  "3ffe::1",
  "3fff:1000::1" // just above 3fff::/20
]

const notAddresses: ReadonlyArray<string> = [
  "",
  "localhost",
  "example.com",
  "1.2.3",
  "1.2.3.4.5",
  "256.1.1.1",
  "010.0.0.1", // leading zeros are octal to some parsers: ambiguous, so refused
  "1::2::3",
  "::ffff:1.2.3",
  "12345::1",
  "[::1",
  " 8.8.8.8"
]

describe("isForbiddenAddress", () => {
  it.each(ipv4Forbidden)("refuses IPv4 %s as %s", (address, reason) => {
    expect(isForbiddenAddress(address)).toBe(reason)
  })

  it.each(ipv4Public)("allows public IPv4 %s", (address) => {
    expect(isForbiddenAddress(address)).toBeUndefined()
  })

  it.each(ipv6Forbidden)("refuses IPv6 %s as %s", (address, reason) => {
    expect(isForbiddenAddress(address)).toBe(reason)
  })

  it.each(ipv6Public)("allows public IPv6 %s", (address) => {
    expect(isForbiddenAddress(address)).toBeUndefined()
  })

  it.each(notAddresses)("refuses %j, which is not an IP address", (text) => {
    expect(isForbiddenAddress(text)).toBe("not an IP address")
  })
})
