import { makeSandboxPlugin } from "../../adapters/gateways/sandbox/index.js"
import { gatewayPluginConformance } from "./suite.js"

gatewayPluginConformance("sandbox", () => makeSandboxPlugin({ secret: new Uint8Array(32).fill(11) }))
