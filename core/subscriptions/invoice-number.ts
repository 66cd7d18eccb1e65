import type { Instant } from "../shared/instant.js"

/**
 * An invoice's number, `INV-2026-000001`: gapless per merchant, environment and calendar year of issue
 * (UTC), the count restarting each year (docs/decisions.md). The store draws the count in the
 * transaction that inserts the invoice, so a rollback returns it; past 999999 it simply grows a digit.
 */
export const invoiceNumber = (year: number, count: number): string => `INV-${year}-${String(count).padStart(6, "0")}`

/** The calendar year (UTC) an invoice issued at `at` is numbered in. */
export const numberingYear = (at: Instant): number => new Date(Number(at / 1000n)).getUTCFullYear()
