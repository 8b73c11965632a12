// The sandbox service without the chains: its HTTP server (the contract's envelope, faults, the log)
// with the card routes, on a free port. Card delivery needs a chain; nothing here pays.
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
// @ts-expect-error: plain ESM module of the sandbox
import { createSandboxServer } from '../../sandbox/server.mjs'

export const PAGE_ORIGIN = 'http://127.0.0.1:4173'
export const SANDBOX_KEY = 'sk_sandbox_partner_key'

export type LogEntry = { method: string; path: string; status: number; fault?: string }
export type MiniSandbox = {
  base: string
  close: () => Promise<void>
  control: (body: unknown) => Promise<unknown>
  reset: () => Promise<unknown>
  log: () => Promise<LogEntry[]>
}

export async function startMiniSandbox(): Promise<MiniSandbox> {
  // The sandbox runs the built kit (dist/server); here it runs the kit's source, and builds nothing.
  process.env.SANDBOX_PARTNER_KIT = fileURLToPath(new URL('../../../src/server/index.ts', import.meta.url))
  // @ts-expect-error: plain ESM module of the sandbox
  const { cardRoutes } = await import('../../sandbox/routes/card.mjs')
  const routes: Record<string, unknown> = {}
  const modules: Array<{ control?: { set?: (b: unknown) => void; reset?: () => void } }> = []
  const control: Record<string, unknown> = {
    set: (body: unknown) => modules.forEach((m) => m.control?.set?.(body)),
    reset: () => modules.forEach((m) => m.control?.reset?.()),
  }
  const allowedOrigins = [PAGE_ORIGIN]
  const server = createSandboxServer({ allowedOrigins, routes, control })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const card = cardRoutes({ chains: { dst: undefined }, publicBase: base, allowedOrigins })
  modules.push(card)
  // The partner backend's store, opened now rather than on the first request (PGlite takes seconds).
  await card.partnerStore()
  Object.assign(routes, card.routes)
  control.plainHeaders = card.plainHeaders
  return {
    base,
    control: async (body) => (await fetch(`${base}/__sandbox/control`, { method: 'POST', body: JSON.stringify(body) })).json(),
    reset: async () => (await fetch(`${base}/__sandbox/reset`, { method: 'POST' })).json(),
    log: async () => (await fetch(`${base}/__sandbox/log`)).json(),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      await card.close()
    },
  }
}
