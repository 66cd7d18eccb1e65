import { describe, expect, it } from "vitest"
import { refusalBeforeLookup } from "./target-rule.js"

const guarded = { allowPrivateTargets: false }
const open = { allowPrivateTargets: true }
const refusal = (url: string, options = guarded) => refusalBeforeLookup(new URL(url), options)

describe("refusalBeforeLookup: what a webhook URL is refused for without DNS", () => {
  it.each([
    ["http://127.0.0.1:8080/ipn", "loopback"],
    ["http://0x7f.1/", "loopback"],
    ["https://[::1]/", "loopback"],
    ["https://[::ffff:10.0.0.1]/", "private"],
    ["http://169.254.169.254/latest", "metadata"],
    ["http://192.168.1.10/", "private"],
    ["http://[fe80::1]/", "link-local"],
    ["http://localhost/", "loopback"],
    ["http://LocalHost.:3000/", "loopback"],
    ["http://shop.localhost/", "loopback"],
    ["ftp://shop.example/", "unsupported scheme ftp:"],
    ["javascript:alert(1)", "unsupported scheme javascript:"],
    ["https://user:pass@shop.example/", "credentials in URL"]
  ])("refuses %s (%s)", (url, reason) => {
    expect(refusal(url)).toBe(reason)
  })

  it.each(["https://shop.example/ipn", "https://8.8.8.8/", "https://[2606:4700::1111]/", "https://localhost.example/", "https://mylocalhost/"])(
    "leaves %s to delivery, which resolves it and checks every address",
    (url) => {
      expect(refusal(url)).toBeUndefined()
    }
  )

  it("lets private and loopback hosts through when the operator allows them, never other schemes", () => {
    expect(refusal("http://127.0.0.1/", open)).toBeUndefined()
    expect(refusal("http://localhost/", open)).toBeUndefined()
    expect(refusal("ftp://127.0.0.1/", open)).toBe("unsupported scheme ftp:")
  })
})
