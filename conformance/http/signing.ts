import { createHmac } from "node:crypto"
import { request as httpRequest, type IncomingHttpHeaders } from "node:http"
import { request as httpsRequest } from "node:https"

/**
 * The conformance suite's own client: it signs requests with node:crypto directly and speaks raw
 * HTTP through node:http, so it depends on nothing in this repository's implementation and can be
 * pointed at any host. node:http rather than fetch: it sends exactly the bytes and headers given
 * (a body on GET, a lying Content-Length, chunked uploads) and can bind a local address.
 */

/** Where the host under test listens and how to administer it. */
export interface Target {
  readonly baseUrl: string
  readonly adminToken: string
  /** The host lets webhooks reach loopback and private networks (WEBHOOK_ALLOW_PRIVATE_TARGETS); default false. */
  readonly allowsPrivateWebhookTargets?: boolean
}

export interface SignInput {
  readonly secret: string
  readonly timestamp: string
  readonly method: string
  /** Path plus query string exactly as sent, e.g. `/api/v1/site-info?x=1`. */
  readonly pathWithQuery: string
  /** The exact body bytes sent; a string is UTF-8. Empty (or absent) for a bodiless request. */
  readonly body?: string | Uint8Array
}

/** Lower-case hex HMAC-SHA256 of `<timestamp>.<METHOD>.<path_with_query>.<raw_body>` (spec 5.5). */
export const signHex = ({ secret, timestamp, method, pathWithQuery, body = "" }: SignInput): string =>
  createHmac("sha256", secret)
    .update(`${timestamp}.${method.toUpperCase()}.${pathWithQuery}.`, "utf8")
    .update(typeof body === "string" ? Buffer.from(body, "utf8") : body)
    .digest("hex")

/** The `X-Signature` value of spec 5.4: `sha256=` and the lower-case hex MAC. */
export const sign = (input: SignInput): string => `sha256=${signHex(input)}`

export const nowSeconds = (): number => Math.floor(Date.now() / 1000)

export interface HttpResult {
  readonly status: number
  /** Lower-case header names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>
  /** The exact response text, for checks a JSON parse would blur (number literals). */
  readonly text: string
  readonly json: () => any
}

export interface RawRequest {
  readonly method: string
  readonly path: string
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string | Uint8Array
  /** Send the body with Transfer-Encoding: chunked instead of a Content-Length. */
  readonly chunked?: boolean
  /** Local address to connect from (a second loopback address gives a second client IP). */
  readonly localAddress?: string
}

const flatten = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) =>
      value === undefined ? [] : [[name.toLowerCase(), Array.isArray(value) ? value.join(", ") : value]]
    )
  )

/**
 * The path a request to `path` really goes to: under the target's own path when the host is mounted
 * there (an embedded kit at /payments). It is what the merchant signs (spec 5: the path called).
 */
export const targetPath = (target: Pick<Target, "baseUrl">, path: string): string =>
  `${new URL(target.baseUrl).pathname.replace(/\/+$/, "")}${path}`

let signedCalls = 0

/**
 * The path the suite's client signs for a call to `path`. The spec writes every path relative to
 * `{base_url}` and real clients sign that relative path, while others sign the full path they call;
 * a host under a base path must accept both, so the suite alternates between them (the two are the
 * same text when the target has no path of its own).
 */
export const signedPath = (target: Pick<Target, "baseUrl">, path: string): string =>
  signedCalls++ % 2 === 0 ? targetPath(target, path) : path

/** One HTTP exchange with exactly the given method, target, headers and body bytes. */
export const rawRequest = (target: Pick<Target, "baseUrl">, input: RawRequest): Promise<HttpResult> =>
  new Promise((resolve, reject) => {
    const base = new URL(target.baseUrl)
    const body = input.body === undefined ? undefined : typeof input.body === "string" ? Buffer.from(input.body, "utf8") : Buffer.from(input.body)
    const headers: Record<string, string> = { ...input.headers }
    if (body !== undefined && input.chunked !== true) headers["content-length"] ??= String(body.length)
    if (input.chunked === true) headers["transfer-encoding"] = "chunked"
    const send = base.protocol === "https:" ? httpsRequest : httpRequest
    let settled = false
    const request = send({
      protocol: base.protocol,
      hostname: base.hostname.replace(/^\[|\]$/g, ""),
      port: base.port === "" ? undefined : Number(base.port),
      method: input.method,
      path: targetPath(target, input.path),
      headers,
      agent: false,
      ...(input.localAddress !== undefined ? { localAddress: input.localAddress } : {})
    }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("error", (error) => settled || reject(error))
      response.on("end", () => {
        settled = true
        const text = Buffer.concat(chunks).toString("utf8")
        resolve({
          status: response.statusCode ?? 0,
          headers: flatten(response.headers),
          text,
          json: () => JSON.parse(text)
        })
      })
    })
    // A host may answer (413) before reading everything; a write error after that is not a failure.
    request.on("error", (error) => settled || setTimeout(() => settled || reject(error), 200))
    if (body !== undefined && input.chunked === true) {
      for (let offset = 0; offset < body.length; offset += 64 * 1024) request.write(body.subarray(offset, offset + 64 * 1024))
      request.end()
    } else {
      request.end(body)
    }
  })

export interface ApiRequest {
  readonly method?: string
  /** Path plus query string, signed exactly as given. */
  readonly path: string
  /** X-Environment; not sent when undefined (also when explicitly set to undefined, to drop a default). */
  readonly environment?: string | undefined
  readonly merchantKey?: string | undefined
  readonly apiKey?: string | undefined
  /** Client secret: when given, the request is signed unless `signature` overrides it. */
  readonly secret?: string
  readonly body?: string | Uint8Array
  /** X-Timestamp: defaults to now when signing; `null` sends none. */
  readonly timestamp?: string | null
  /** X-Signature: defaults to the correct signature when `secret` is given; `null` sends none. */
  readonly signature?: string | null
  readonly headers?: Readonly<Record<string, string>>
  readonly localAddress?: string
}

/** A merchant API call (spec 5): credential headers, X-Timestamp and X-Signature over the exact bytes. */
export const apiRequest = (target: Pick<Target, "baseUrl">, input: ApiRequest): Promise<HttpResult> => {
  const method = input.method ?? "GET"
  const headers: Record<string, string> = { accept: "application/json" }
  if (input.body !== undefined) headers["content-type"] = "application/json"
  if (input.environment !== undefined) headers["x-environment"] = input.environment
  if (input.merchantKey !== undefined) headers["x-merchant-key"] = input.merchantKey
  if (input.apiKey !== undefined) headers["x-api-key"] = input.apiKey
  const timestamp = input.timestamp === undefined ? (input.secret !== undefined ? String(nowSeconds()) : null) : input.timestamp
  if (timestamp !== null) headers["x-timestamp"] = timestamp
  const signature = input.signature !== undefined
    ? input.signature
    : input.secret !== undefined && timestamp !== null
    ? sign({
      secret: input.secret,
      timestamp,
      method,
      pathWithQuery: signedPath(target, input.path),
      ...(input.body !== undefined ? { body: input.body } : {})
    })
    : null
  if (signature !== null) headers["x-signature"] = signature
  return rawRequest(target, {
    method,
    path: input.path,
    headers: { ...headers, ...input.headers },
    ...(input.body !== undefined ? { body: input.body } : {}),
    ...(input.localAddress !== undefined ? { localAddress: input.localAddress } : {})
  })
}

/** An admin API call under /admin/v1 with the bearer token; `body` is sent as JSON (or as given, if a string). */
export const adminRequest = (target: Target, method: string, path: string, body?: unknown, localAddress?: string): Promise<HttpResult> =>
  rawRequest(target, {
    method,
    path: `/admin/v1${path}`,
    headers: {
      accept: "application/json",
      authorization: `Bearer ${target.adminToken}`,
      ...(body !== undefined ? { "content-type": "application/json" } : {})
    },
    ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
    ...(localAddress !== undefined ? { localAddress } : {})
  })
