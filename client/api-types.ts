import type * as Schema from "effect/Schema"
import type { BodyContract, WireBody } from "../adapters/http/contract/read-body.js"
import type { Endpoint } from "../adapters/http/endpoint/endpoint.js"
import type { QueryContract } from "../adapters/http/contract/query-contract.js"
import type { merchantApi } from "../adapters/http/merchant-api/merchant-api.js"
import type { ExactNumber } from "../core/shared/json-text.js"
import type { DecimalString } from "./exact-json.js"

/**
 * The merchant API's bodies as they cross the wire, read off the endpoint declarations (type-only:
 * nothing of the server is loaded at run time), in the API's own snake_case so the spec reads as
 * the reference. Every response amount is a DecimalString: the exact digits, never a JavaScript number.
 */

type Api = (typeof merchantApi)[number]

/** The operationId of every merchant API endpoint. */
export type OperationId = Api["operationId"]

type OperationOf<Id extends OperationId> = Extract<Api, { readonly operationId: Id }>

/** A response value as the client hands it over: exact amounts as decimal strings. */
export type Wire<T> = T extends ExactNumber ? DecimalString
  : T extends ReadonlyArray<infer Item> ? ReadonlyArray<Wire<Item>>
  : T extends object ? { readonly [K in keyof T]: Wire<T[K]> }
  : T

/** What an operation answers with on success. */
export type ResponseOf<Id extends OperationId> = Wire<Schema.Schema.Type<OperationOf<Id>["success"]["schema"]>>

/** The body an operation takes; never for one without a body. */
export type RequestOf<Id extends OperationId> = OperationOf<Id> extends Endpoint<Schema.Schema.AnyNoContext, unknown, string, string, infer B>
  ? [B] extends [never] ? never : B extends BodyContract<infer F> ? WireBody<F> : never
  : never

type PathParameters<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? { readonly [K in Name]: string } & PathParameters<Rest>
  : unknown

/** The path parameters an operation's path template names, each a string. */
export type PathOf<Id extends OperationId> = PathParameters<OperationOf<Id>["path"]>

/** A decoded query value as a client writes it: an exact amount or a time as its text, a literal as itself. */
type QueryValue<T> = T extends bigint ? string : T

/**
 * The query an operation declares, keyed by wire name, every parameter optional (the service has
 * a default for each); never for one that reads no query.
 */
export type QueryOf<Id extends OperationId> = OperationOf<Id> extends { readonly query?: QueryContract<infer Q> }
  ? [Q] extends [never] ? never : unknown extends Q ? never : { readonly [K in keyof Q]?: QueryValue<Exclude<Q[K], undefined>> | undefined }
  : never

export type PaymentSession = ResponseOf<"initiatePayment">
export type InitiatePaymentRequest = RequestOf<"initiatePayment">
/** Spec 2.3; fee and net are "0" until the payment succeeded. */
export type Transaction = ResponseOf<"verifyPayment">
export type PaymentStatus = Transaction["status"]
export type Environment = PaymentSession["info"]["environment"]
/** The sandbox simulator's outcomes, in verify's words. */
export type SimulatedOutcome = RequestOf<"simulatePayment">["outcome"]
/** The same `ref_refund` never refunds twice: a repeat answers the original refund. */
export type RefundRequest = RequestOf<"refundPayment">
export type Refund = ResponseOf<"refundPayment">
export type SiteInfo = ResponseOf<"siteInfo">
