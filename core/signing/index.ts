/** The signing core: HMAC signatures, checkout tokens, credentials and the randomness port. */
export * from "./hmac.js"
export * from "./signature-header.js"
export * from "./request-signature.js"
export * from "./webhook-signature.js"
export * from "./checkout-token.js"
export * from "./credentials.js"
export * from "./random-text.js"
// Renamed so the generic names `layer` / `layerTest` do not clash with other modules' exports.
export { Ids, TRANSACTION_ID_CHARS, layer as IdsLive, layerTest as IdsTest } from "./ids.js"
