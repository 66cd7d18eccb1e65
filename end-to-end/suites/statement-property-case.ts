import { Effect, Either, Option } from "effect"
import fc from "fast-check"
import { expect, it } from "vitest"
import type { MerchantScope } from "../../core/merchants/merchant-scope.js"
import { Amount } from "../../core/money/amount.js"
import { type StatementEntry, type StatementPage, walletStatement } from "../../core/wallets/statement.js"
import { WalletRepository } from "../../core/wallets/wallet-repository.js"

type Run = <A, E>(effect: Effect.Effect<A, E, any>) => Promise<A>

/** Deltas of whole cents, debits included: the ones that would overdraw are refused and leave no entry. */
const postings = fc.array(fc.integer({ min: -5_000, max: 10_000 }).filter((cents) => cents !== 0), { maxLength: 25 })

export const statementPropertyCase = (run: Run, shop: (label: string, currencies: ReadonlyArray<string>) => Promise<MerchantScope>) =>
  it("statement (property): each entry's balanceAfter is the sum of the deltas up to it, and page one's top is the balance", async () => {
    let shops = 0
    await fc.assert(
      fc.asyncProperty(postings, fc.integer({ min: 1, max: 7 }), async (cents, limit) => {
        const scope = await shop(`Property Shop ${++shops}`, ["USD"])
        const { accepted, balance, walletId } = await run(Effect.gen(function*() {
          const wallets = yield* WalletRepository
          const wallet = Option.getOrThrow(yield* wallets.find(scope.merchant.id, "USD", "sandbox"))
          const accepted: Array<bigint> = []
          for (const amount of cents.map((c) => Amount(BigInt(c) * 1_000_000n))) {
            const posted = yield* Effect.either(wallets.post(
              amount > 0n
                ? { walletId: wallet.id, kind: "payment_credit", delta: amount, fee: Amount(0n), reference: "property" }
                : { walletId: wallet.id, kind: "refund_debit", delta: amount, reference: "property" }
            ))
            if (Either.isRight(posted)) accepted.push(amount)
            else expect(posted.left._tag).toBe("InsufficientBalance")
          }
          return { accepted, walletId: wallet.id, balance: Option.getOrThrow(yield* wallets.findById(wallet.id)).balance }
        }))

        const newestFirst: Array<StatementEntry> = []
        let cursor: string | null = null
        let top: bigint | undefined
        do {
          const page: StatementPage = await run(walletStatement(scope, walletId, { limit, ...(cursor !== null ? { cursor } : {}) }))
          top ??= page.entries[0]?.balanceAfter ?? 0n
          expect(page.entries.length).toBeLessThanOrEqual(limit)
          newestFirst.push(...page.entries)
          cursor = page.nextCursor
        } while (cursor !== null)

        const oldestFirst = [...newestFirst].reverse()
        expect(oldestFirst.map((entry) => entry.amount)).toEqual(accepted)
        let running = 0n
        for (const entry of oldestFirst) {
          running += entry.amount
          expect(entry.balanceAfter).toBe(running)
        }
        expect(top).toBe(balance)
        expect(running).toBe(balance)
      }),
      { numRuns: 30 }
    )
  }, 120_000)
