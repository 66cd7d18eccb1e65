import * as Effect from "effect/Effect"
import type { MerchantUser } from "../../../core/merchant-users/merchant-user.js"
import {
  createMerchantUser, deleteMerchantUser, issuePasswordLink, listMerchantUsers, setMerchantUserDisabled
} from "../../../core/merchant-users/user-admin.js"
import { CheckoutLinks } from "../../../core/payments/checkout-links.js"
import { MerchantId } from "../../../core/shared/ids.js"
import { toIsoString } from "../../../core/shared/instant.js"
import { createMerchantUserBody, updateMerchantUserBody } from "../contract/admin-contracts.js"
import * as Resources from "../contract/merchant-user-resources.js"
import { merchantIdInPath, textInPath } from "../contract/parameters.js"
import { validBody } from "../contract/read-body.js"
import { endpoint } from "../endpoint/endpoint.js"

const merchantId = Effect.map(merchantIdInPath.read, MerchantId)
const userIdInPath = textInPath("user_id", "The dashboard user's id.")

const TAG = "Admin: dashboard users"

const userJson = (user: MerchantUser): typeof Resources.MerchantUser.Type => ({
  id: user.id,
  email: user.email,
  role: user.role,
  status: user.status,
  created_at: toIsoString(user.createdAt),
  last_sign_in_at: user.lastSignInAt === null ? null : toIsoString(user.lastSignInAt)
})

/** The dashboard's set-password page for a link, under the public address checkout links use (base path included). */
const passwordLinkJson = ({ user, passwordToken }: { readonly user: MerchantUser; readonly passwordToken: string }) =>
  Effect.map(CheckoutLinks, (links): typeof Resources.PasswordLinkIssued.Type => ({
    data: { id: user.id, email: user.email, role: user.role, set_password_url: `${links.baseUrl}/dashboard/set-password/${passwordToken}` }
  }))

const create = endpoint({
  method: "post",
  path: "/admin/v1/merchants/{id}/users",
  operationId: "createMerchantUser",
  summary: "Invite a dashboard user",
  description: "The user is `invited` until it sets a password through `set_password_url` (once, within 24 hours). " +
    "Emails are unique across every merchant: one sign-in names one merchant.",
  tag: TAG,
  security: "admin",
  parameters: [merchantIdInPath],
  body: createMerchantUserBody,
  success: { status: 201, description: "The user and its set-password link, shown this once.", schema: Resources.PasswordLinkIssued },
  errors: ["MerchantNotFound", "MerchantUserEmailTaken"],
  handler: Effect.gen(function*() {
    const id = yield* merchantId
    const body = yield* validBody(createMerchantUserBody)
    return yield* passwordLinkJson(yield* createMerchantUser(id, body))
  })
})

const list = endpoint({
  method: "get",
  path: "/admin/v1/merchants/{id}/users",
  operationId: "listMerchantUsers",
  summary: "The merchant's dashboard users, oldest first",
  tag: TAG,
  security: "admin",
  parameters: [merchantIdInPath],
  success: { status: 200, description: "Every dashboard user of the merchant.", schema: Resources.MerchantUserList },
  errors: ["MerchantNotFound"],
  handler: Effect.map(Effect.flatMap(merchantId, listMerchantUsers), (users) => ({ data: users.map(userJson) }))
})

const update = endpoint({
  method: "patch",
  path: "/admin/v1/merchants/{id}/users/{user_id}",
  operationId: "updateMerchantUser",
  summary: "Disable or enable a dashboard user",
  description: "Disabling signs the user out everywhere at once; enabling makes it `active` again, or `invited` when it never set a password. " +
    "The merchant's last active owner cannot be disabled (409).",
  tag: TAG,
  security: "admin",
  parameters: [merchantIdInPath, userIdInPath],
  body: updateMerchantUserBody,
  success: { status: 200, description: "The user.", schema: Resources.MerchantUserAnswer },
  errors: ["MerchantNotFound", "MerchantUserNotFound", "LastOwner"],
  handler: Effect.gen(function*() {
    const id = yield* merchantId
    const userId = yield* userIdInPath.read
    const { disabled } = yield* validBody(updateMerchantUserBody)
    return { data: userJson(yield* setMerchantUserDisabled(id, userId, disabled)) }
  })
})

const remove = endpoint({
  method: "delete",
  path: "/admin/v1/merchants/{id}/users/{user_id}",
  operationId: "deleteMerchantUser",
  summary: "Delete a dashboard user",
  description: "Signs the user out everywhere and voids its set-password link; its email may then be invited again. " +
    "The merchant's last active owner cannot be deleted (409).",
  tag: TAG,
  security: "admin",
  parameters: [merchantIdInPath, userIdInPath],
  success: { status: 200, description: "The user is gone.", schema: Resources.DeletedMerchantUser },
  errors: ["MerchantNotFound", "MerchantUserNotFound", "LastOwner"],
  handler: Effect.gen(function*() {
    const id = yield* merchantId
    const userId = yield* userIdInPath.read
    yield* deleteMerchantUser(id, userId)
    return { data: { id: userId, deleted: true as const } }
  })
})

const passwordLink = endpoint({
  method: "post",
  path: "/admin/v1/merchants/{id}/users/{user_id}/password-link",
  operationId: "issueMerchantUserPasswordLink",
  summary: "A fresh set-password link (a forgotten password)",
  description: "Valid once, within 24 hours; the user's earlier links stop working. The current password keeps working until a new one is set.",
  tag: TAG,
  security: "admin",
  parameters: [merchantIdInPath, userIdInPath],
  success: { status: 201, description: "The link, shown this once.", schema: Resources.PasswordLinkIssued },
  errors: ["MerchantNotFound", "MerchantUserNotFound"],
  handler: Effect.gen(function*() {
    const id = yield* merchantId
    const userId = yield* userIdInPath.read
    return yield* passwordLinkJson(yield* issuePasswordLink(id, userId))
  })
})

/** docs/admin-api.md, dashboard users: who may sign in to a merchant's dashboard. */
export const adminMerchantUserEndpoints = [create, list, update, passwordLink, remove] as const
