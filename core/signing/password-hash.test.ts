import { scryptSync } from "node:crypto"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { hashPassword, SCRYPT_BLOCK_SIZE, SCRYPT_COST, SCRYPT_PARALLELISM, UNMATCHABLE_HASH, verifyPassword } from "./password-hash.js"

const run = <A>(effect: Effect.Effect<A>) => Effect.runPromise(effect)

describe("password hash", () => {
  it("verifies the password it was made from, and no other", async () => {
    const stored = await run(hashPassword("correct horse battery staple"))
    expect(await run(verifyPassword("correct horse battery staple", stored))).toBe(true)
    expect(await run(verifyPassword("correct horse battery stapLe", stored))).toBe(false)
    expect(await run(verifyPassword("", stored))).toBe(false)
  })

  it("is stored as scrypt$N$r$p$salt$key with the current parameters, a fresh salt each time", async () => {
    const [a, b] = await Promise.all([run(hashPassword("same password here")), run(hashPassword("same password here"))])
    const parts = a.split("$")
    expect(parts.slice(0, 4)).toEqual(["scrypt", String(SCRYPT_COST), String(SCRYPT_BLOCK_SIZE), String(SCRYPT_PARALLELISM)])
    expect(SCRYPT_COST).toBeGreaterThanOrEqual(2 ** 15)
    expect(Buffer.from(parts[4]!, "base64url")).toHaveLength(16)
    expect(Buffer.from(parts[5]!, "base64url")).toHaveLength(32)
    expect(a).not.toBe(b)
    expect(a.split("$")[4]).not.toBe(b.split("$")[4])
  })

  it("verifies a hash made with other parameters, as the hash itself names them", async () => {
    // scrypt of "legacy password!" with N=2^14, r=8, p=1, salt of 16 bytes 0x01, 32-byte key.
    const salt = Buffer.alloc(16, 1)
    const key = scryptSync("legacy password!", salt, 32, { N: 2 ** 14, r: 8, p: 1 })
    const stored = `scrypt$16384$8$1$${salt.toString("base64url")}$${key.toString("base64url")}`
    expect(await run(verifyPassword("legacy password!", stored))).toBe(true)
    expect(await run(verifyPassword("legacy password?", stored))).toBe(false)
  })

  it("treats composed and decomposed accents as the same password", async () => {
    const stored = await run(hashPassword("caf\u00e9 au lait, s'il vous pla\u00eet"))
    expect(await run(verifyPassword("cafe\u0301 au lait, s'il vous pla\u0069\u0302t", stored))).toBe(true)
  })

  it("refuses what it cannot read, and the unmatchable hash, without throwing", async () => {
    for (const stored of ["", "plain", "scrypt$3$8$1$AAAA$AAAA", "scrypt$1073741824$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "bcrypt$2b$10$abc"]) {
      expect(await run(verifyPassword("anything at all", stored)), stored).toBe(false)
    }
    expect(await run(verifyPassword("", UNMATCHABLE_HASH))).toBe(false)
    expect(UNMATCHABLE_HASH.split("$").slice(0, 4)).toEqual(["scrypt", String(SCRYPT_COST), String(SCRYPT_BLOCK_SIZE), String(SCRYPT_PARALLELISM)])
  })
})
