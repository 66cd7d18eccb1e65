import * as Context from "effect/Context"

/**
 * How long a merchant has to answer a dispute the kit opens itself (in sandbox): its evidence_due_by
 * is the opening plus this many days. A gateway's dispute carries the network's own deadline instead.
 */
export class DisputeSettings extends Context.Reference<DisputeSettings>()("merchant-payments/DisputeSettings", {
  defaultValue: (): { readonly evidenceDays: number } => ({ evidenceDays: 7 })
}) {}
