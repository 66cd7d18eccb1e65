import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["{architecture,core,adapters,hosts,end-to-end,client,conformance,scripts,examples}/**/*.test.ts"],
    // Storage suites open real databases; give slow CI machines room without hiding hangs.
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
