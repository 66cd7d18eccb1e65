// Reads vitest's JSON report: prints the plain "N passed, N failed, N skipped" line and fails
// when no PostgreSQL suite or no browser test ran (a run that silently skipped them must not pass).
import { readFileSync } from "node:fs"

const report = JSON.parse(readFileSync(process.argv[2], "utf8"))
const tests = report.testResults.flatMap((file) => file.assertionResults)
const count = (status) => tests.filter((test) => test.status === status).length
const passed = count("passed")
const failed = count("failed")
const skipped = tests.length - passed - failed

const onPostgres = (test) => /postgres/i.test(test.fullName)
const postgresPassed = tests.filter((test) => onPostgres(test) && test.status === "passed").length
const postgresNotRun = tests.filter((test) => onPostgres(test) && test.status !== "passed" && test.status !== "failed")

const inBrowser = (test) => /browser/i.test(test.fullName)
const browserPassed = tests.filter((test) => inBrowser(test) && test.status === "passed").length

console.log(`PostgreSQL suites: ${postgresPassed} tests passed, ${postgresNotRun.length} not run`)
console.log(`Browser checkout: ${browserPassed} tests passed`)
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`)

if (postgresPassed === 0 || postgresNotRun.length > 0) {
  console.error("[ci] FAIL: the PostgreSQL suites did not run (is TEST_DATABASE_URL reaching the tests?)")
  process.exit(1)
}
if (browserPassed === 0) {
  console.error("[ci] FAIL: the browser checkout test did not run (is /usr/bin/chromium installed?)")
  process.exit(1)
}
if (report.success !== true || failed > 0) process.exit(1)
