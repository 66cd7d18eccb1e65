import { existsSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { createServer as createTcpServer, type AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import { chromium, type Browser } from "playwright-core"

// The browser test's surroundings: a port for the host and the merchant's own little site.

/** A port the kernel just handed out, released before the host binds it (small race, fine here). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createTcpServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const port = (probe.address() as AddressInfo).port
      probe.close(() => resolve(port))
    })
  })

/** The merchant's site: the two pages checkout sends the customer back to, and an IPN sink. */
export const startMerchantSite = () =>
  new Promise<{ server: Server; url: string }>((resolve) => {
    const server = createServer((request, response) => {
      const path = new URL(request.url ?? "/", "http://merchant.invalid").pathname
      const which = path === "/ok" ? "Payment successful" : path === "/cancel" ? "Payment cancelled" : undefined
      request.resume()
      if (which === undefined) {
        response.writeHead(path === "/ipn" ? 200 : 404, { "content-type": "text/plain" }).end("ok")
        return
      }
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      response.end(`<!doctype html><title>Merchant: ${which}</title><h1 data-testid="merchant-page">${which}</h1>`)
    })
    server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }))
  })

export const closeServer = (server: Server | undefined) =>
  new Promise<void>((resolve) => {
    if (server === undefined) return resolve()
    server.close(() => resolve())
    server.closeAllConnections()
  })

/** Debian's Chromium (apt-get install chromium): no browser is downloaded. */
export const CHROMIUM = "/usr/bin/chromium"
export const hasChromium = existsSync(CHROMIUM)

/** Where screenshots are kept for a person to look at (git-ignored); CHECKOUT_SCREENSHOT_DIR overrides. */
export const SHOT_DIR = process.env["CHECKOUT_SCREENSHOT_DIR"] ?? fileURLToPath(new URL("../../artifacts/screenshots", import.meta.url))

/**
 * Headless, as root, on a machine whose network is closed: without the background-networking flags
 * Chromium keeps trying Google's hosts.
 */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
  })
