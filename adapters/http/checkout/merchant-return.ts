import type { Payment } from "../../../core/payments/payment.js"

/**
 * The merchant's `success_redirect` or `cancel_redirect` with `trx_id` and `ref_trx` added to its
 * query, so the page the customer lands on knows which order came back (it must still verify it:
 * anyone can type these parameters). The merchant's own parameters and fragment are kept as they
 * were written; a `trx_id` or `ref_trx` of its own is replaced, so each name appears once.
 * Undefined only for a stored URL that no longer parses (stored before URLs were normalised).
 */
export const merchantReturnUrl = (payment: Payment, which: "success" | "cancel"): string | undefined => {
  const stored = which === "success" ? payment.successRedirect : payment.cancelRedirect
  if (!URL.canParse(stored)) return undefined
  const url = new URL(stored)
  const ours = new URLSearchParams({ trx_id: payment.trxId, ref_trx: payment.refTrx })
  const theirs = new URLSearchParams(url.search)
  const clash = [...ours.keys()].some((name) => theirs.has(name))
  for (const name of ours.keys()) theirs.delete(name)
  // Untouched bytes unless a name clashes: a merchant may sign or compare its own query string.
  const kept = clash ? theirs.toString() : url.search.slice(1)
  url.search = kept === "" ? ours.toString() : `${kept}&${ours.toString()}`
  return url.href
}
