import type { Vitest } from "@effect/vitest"
import type { Storage } from "../../core/storage.js"

/** The test methods each case group receives: every storage port in context, on the live clock. */
export type StorageIt = Vitest.MethodsNonLive<Storage, true>
