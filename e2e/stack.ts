import { readFileSync } from 'node:fs'
// @ts-expect-error: plain ESM module of the sandbox
import { SANDBOX_TIMINGS, demoUrl } from '../test/sandbox/demoUrl.mjs'

/**
 * Each worker has a stack of its own (two anvil chains, the sandbox, a sandbox build and the
 * production build, each on its own ports), so no fault, log or rate limit leaks between workers.
 * E2E_WORKERS sets how many (default 4); E2E_PORTS_OFFSET moves every port and folder, so two
 * suites can run on one machine at once.
 *
 * Four on this 2-core machine: a test mostly waits (for the sandbox's timers, the chain, the
 * browser), so two workers kept the cores about half busy and the suite took 333 s; four kept them
 * about 85% busy and took 231–236 s; three took 244 s (2026-11-24).
 */
export const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 4))
const BASE_OFFSET = Number(process.env.E2E_PORTS_OFFSET ?? 0)

/** Ports, folders and origins of one worker's stack (slot = Playwright's parallel index). */
export function layout(slot: number) {
  const offset = BASE_OFFSET + slot * 10
  const suffix = offset ? `-${offset}` : ''
  return {
    offset,
    ports: { sourcePort: 19545 + offset, destPort: 19546 + offset, apiPort: 19787 + offset },
    stackFile: `.sandbox-state/e2e-stack${suffix}.json`,
    registryFile: `.sandbox-state/partners${suffix}.json`,
    sandboxDist: `dist-sandbox${suffix}`,
    sandboxOrigin: `http://127.0.0.1:${4173 + offset}`,
    prodDist: `dist-prod${BASE_OFFSET ? `-${BASE_OFFSET}` : ''}`,
    prodOrigin: `http://127.0.0.1:${4174 + offset}`,
  }
}

const mine = layout(Number(process.env.TEST_PARALLEL_INDEX ?? 0))
export const PORTS_OFFSET = mine.offset
export const PORTS = mine.ports
export const STACK_FILE = mine.stackFile
/** The sandbox build (from the stack's registry) and the production build (from the test registry). */
export const SANDBOX_DIST = mine.sandboxDist
export const SANDBOX_ORIGIN = mine.sandboxOrigin
export const PROD_DIST = mine.prodDist
export const PROD_REGISTRY = 'test/fixtures/partners.json'
/** The sandbox build's second partner: the first's entry under another id (e2e/globalSetup.ts). */
export const SECOND_PARTNER = 'sandbox-other'
/**
 * A partner whose registry entry does not say its backend links wallets (no `walletLink`), and whose
 * backend answers the deposit's routes, their preflights too, with a 404 without CORS headers (the
 * production build's static host stands in for it: e2e/globalSetup.ts).
 */
export const UNLINKED_PARTNER = 'sandbox-no-wallet-link'
export const PROD_ORIGIN = mine.prodOrigin
/** A partner whose registry entry offers WalletConnect through the stack's local relay (e2e/globalSetup.ts). */
export const WALLETCONNECT_PARTNER = 'sandbox-walletconnect'

/** The timers the sandbox build reads from its registry entry (test/sandbox/demoUrl.mjs), in ms. */
export const TIMINGS = SANDBOX_TIMINGS as { pollMs: number; dropCheckMs: number; kycRecheckMs: number; bankPollMs: number; backoffBaseMs: number }

export type StackConfig = {
  apiBase: string
  chains: Array<{ id: number; name: string; rpcUrl: string }>
  sources: Array<{ chainId: number; token: string; symbol: string; decimals: number }>
  destination: { chainId: number; token: string; symbol: string; decimals: number }
  depositor: string
  accounts: string[]
  partnerBase: string
  /** The sandbox partner's treasury on the destination chain (its kit's depositDestination). */
  partnerTreasury: string
  cardHosts: string[]
  identityUrl: string
  /** The local relay, the sandbox phone wallet's control API and its account (test/sandbox/walletconnect/). */
  walletConnect: { relayUrl: string; phoneWallet: string; phoneAccount: string }
  /** The sandbox partner's id in the registry, and its private signing key (the partner server's). */
  partner: string
  signingKey: JsonWebKey
}

export function stackConfig(): StackConfig {
  return JSON.parse(readFileSync(STACK_FILE, 'utf8'))
}

/** The hosted page for a flow, configured for the stack (the same URL `npm start` prints). */
function flowUrl(stack: StackConfig, flow: string, extra: Record<string, string>): string {
  return demoUrl(stack, `${SANDBOX_ORIGIN}/`, flow, extra)
}

export const widgetUrl = (stack: StackConfig, extra: Record<string, string> = {}) => flowUrl(stack, 'deposit', extra)
export const cardUrl = (stack: StackConfig, extra: Record<string, string> = {}) => flowUrl(stack, 'card', extra)
export const fiatUrl = (stack: StackConfig, extra: Record<string, string> = {}) => flowUrl(stack, 'onboarding', extra)

export async function sandbox(stack: StackConfig, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(stack.apiBase + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`sandbox ${path}: ${res.status}`)
  return res.json()
}

export async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await res.json()) as { result?: unknown; error?: { message: string } }
  if (body.error) throw new Error(body.error.message)
  return body.result
}

/** `address`'s balance of the destination token (what the routing layer delivers), in its units. */
export async function destBalance(stack: StackConfig, address: string): Promise<bigint> {
  const data = `0x70a08231${address.slice(2).toLowerCase().padStart(64, '0')}`
  const dest = stack.chains.find((c) => c.id === stack.destination.chainId)!
  return BigInt((await rpc(dest.rpcUrl, 'eth_call', [{ to: stack.destination.token, data }, 'latest'])) as string)
}

/** Mines what waits in the mempool, then mines every transaction as it comes again. */
export async function mineAndResume(rpcUrl: string) {
  await rpc(rpcUrl, 'evm_mine')
  await rpc(rpcUrl, 'evm_setAutomine', [true])
}

export type LogEntry = { t: number; method: string; path: string; origin?: string; status: number; fault?: string }
