import { Layer } from "effect"
import * as Merchants from "./merchant-repository.js"

/** Every storage port over whichever SqlClient is provided. */
export const sqlStorageLayer = Layer.mergeAll(Merchants.layer)
