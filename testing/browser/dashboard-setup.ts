import { randomUUID } from "node:crypto"
import { expect } from "vitest"
import { adminCall, type Credentials, type DashboardWorld, initiate } from "./dashboard-flow.js"

// What both dashboard worlds set up through the admin API before a browser opens.

type Admin = Pick<DashboardWorld, "base" | "adminToken">

const ok = (answer: { readonly status: number; readonly json: unknown }, what: string) => {
  expect([200, 201, 204], `${what}: ${JSON.stringify(answer.json)}`).toContain(answer.status)
  return answer.json as Record<string, any>
}

/** An approved merchant taking USD in sandbox, with credentials: the stranger whose payment must stay hidden. */
export const onboardMerchant = async (admin: Admin, name: string) => {
  const merchant = ok(await adminCall(admin, "POST", "/merchants", { name, status: "approved", fee_percent: "2.9", fee_fixed: "0.30" }), "merchant")
  ok(await adminCall(admin, "PUT", `/merchants/${merchant["id"]}/currencies`, { currency_codes: ["USD"] }), "currencies")
  ok(await adminCall(admin, "POST", `/merchants/${merchant["id"]}/wallets`, { currency_code: "USD", environment: "sandbox" }), "wallet")
  const credentials = ok(await adminCall(admin, "POST", `/merchants/${merchant["id"]}/credentials`, { environment: "sandbox" }), "credentials") as unknown as Credentials
  return { id: merchant["id"] as number, credentials }
}

/** A second USD sandbox gateway, so API Config has a choice to narrow. */
export const addSecondGateway = async (admin: Admin) =>
  ok(await adminCall(admin, "POST", "/gateways", { plugin: "sandbox", name: "Second test card", currency_code: "USD", method: `card${randomUUID().slice(0, 6)}` }), "gateway")

/** A stranger's pending payment: its id is all the test needs. */
export const strangerPayment = async (world: Pick<DashboardWorld, "base" | "basePath" | "adminToken" | "merchantSite">) => {
  const stranger = await onboardMerchant(world, "Stranger Shop")
  const session = await initiate(world as DashboardWorld, stranger.credentials)
  return session.info.trx_id
}

/** A kit merchant user with a password set through its one-time link. */
export const merchantUser = async (admin: Admin, merchantId: number, email: string, role: "owner" | "viewer") => {
  const created = ok(await adminCall(admin, "POST", `/merchants/${merchantId}/users`, { email, role }), "user")
  const data = created["data"] as { readonly set_password_url: string; readonly role: string; readonly email: string }
  expect(data.role).toBe(role)
  expect(data.email).toBe(email)
  return data.set_password_url
}
