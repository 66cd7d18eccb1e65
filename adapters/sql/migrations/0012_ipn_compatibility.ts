import { runDdl } from "./dialect-ddl.js"

/**
 * Each merchant's IPN compatibility settings (core/webhooks/ipn-compatibility.ts): how X-Signature
 * and the body of its webhooks are spelled. Every existing merchant gets the contract's spelling, so
 * no delivery changes until a merchant asks.
 */
export default runDdl([
  `ALTER TABLE merchants ADD COLUMN ipn_signature_format TEXT NOT NULL DEFAULT 'hex'`,
  `ALTER TABLE merchants ADD COLUMN ipn_json_style TEXT NOT NULL DEFAULT 'compact'`
])
