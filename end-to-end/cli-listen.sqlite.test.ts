import { cliListenSuite } from "./suites/cli-listen-suite.js"

cliListenSuite(() => ({}))
