import * as Schema from "effect/Schema"
import { USER_ROLES } from "../../../core/merchant-users/merchant-user.js"
import { dataOf, listOf } from "./envelopes.js"
import { HttpUrl, NullableTimestamp, Timestamp } from "./value-schemas.js"

const id = Schema.String.annotations({ description: "The user's id (a UUID)." })
const role = Schema.Literal(...USER_ROLES).annotations({ description: "owner: manages the merchant's account; viewer: reads it." })

export const MerchantUser = Schema.Struct({
  id,
  email: Schema.String.annotations({ description: "Lower-cased; unique across every merchant." }),
  role,
  status: Schema.Literal("invited", "active", "disabled").annotations({ description: "invited: no password set yet." }),
  created_at: Timestamp,
  last_sign_in_at: NullableTimestamp
}).annotations({ identifier: "MerchantUser", description: "Someone who may sign in to the merchant's dashboard." })

export const MerchantUserAnswer = dataOf(MerchantUser, "MerchantUserAnswer")
export const MerchantUserList = listOf(MerchantUser, "MerchantUserList")

/** Shown once, when issued: only the link token's hash is stored. */
export const PasswordLinkIssued = dataOf(
  Schema.Struct({
    id,
    email: Schema.String,
    role,
    set_password_url: HttpUrl.annotations({
      description: "Where the user sets a password, once, within 24 hours; it is in this answer only. A new link voids the earlier."
    })
  }).annotations({ identifier: "MerchantUserPasswordLink" }),
  "PasswordLinkIssued"
)

export const DeletedMerchantUser = dataOf(
  Schema.Struct({ id, deleted: Schema.Literal(true) }).annotations({ identifier: "DeletedMerchantUser" }),
  "DeletedMerchantUserAnswer"
)
