import type { GatewayNotification } from "./driver.js"
import type { Answer } from "./kit-harness.js"

/** How the harness mistreats notifications on their way to the kit, as real networks and gateways do. */
export interface DeliveryPlan {
  /** Each notification sent this many times (default 1). */
  readonly duplicate?: number
  /** Sent last first. */
  readonly reorder?: boolean
  /** A wait before each send. */
  readonly delayMillis?: number
  /** Never sent: the gateway's word is lost. */
  readonly drop?: boolean
  readonly send: (notification: GatewayNotification) => Promise<Answer>
}

const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis))

/** Sends the notifications as planned, one after another; the kit's answers in sending order. */
export const deliver = async (notifications: ReadonlyArray<GatewayNotification>, plan: DeliveryPlan): Promise<ReadonlyArray<Answer>> => {
  if (plan.drop === true) return []
  const copies = notifications.flatMap((notification) => Array.from({ length: plan.duplicate ?? 1 }, () => notification))
  const ordered = plan.reorder === true ? [...copies].reverse() : copies
  const answers: Array<Answer> = []
  for (const notification of ordered) {
    if (plan.delayMillis !== undefined) await sleep(plan.delayMillis)
    answers.push(await plan.send(notification))
  }
  return answers
}
