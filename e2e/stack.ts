import { readFileSync } from 'node:fs'
// @ts-expect-error: plain ESM module of the sandbox
import { demoUrl } from '../test/sandbox/demoUrl.mjs'

/** E2E_PORTS_OFFSET moves every port (and the sandbox build's folder), so two suites can run at once. */
export const PORTS_OFFSET = Number(process.env.E2E_PORTS_OFFSET ?? 0)
const suffix = PORTS_OFFSET ? `-${PORTS_OFFSET}` : ''
export const PORTS = { sourcePort: 19545 + PORTS_OFFSET, destPort: 19546 + PORTS_OFFSET, apiPort: 19787 + PORTS_OFFSET }
export const STACK_FILE = `.sandbox-state/e2e-stack${suffix}.json`
/** The sandbox build (from the stack's registry) and the production build (from the test registry). */
export const SANDBOX_DIST = `dist-sandbox${suffix}`
export const SANDBOX_ORIGIN = `http://127.0.0.1:${4173 + PORTS_OFFSET}`
export const PROD_DIST = `dist-prod${suffix}`
export const PROD_REGISTRY = 'test/fixtures/partners.json'
export const PROD_ORIGIN = `http://127.0.0.1:${4174 + PORTS_OFFSET}`

export type StackConfig = {
  apiBase: string
  chains: Array<{ id: number; name: string; rpcUrl: string }>
  sources: Array<{ chainId: number; token: string; symbol: string; decimals: number }>
  destination: { chainId: number; token: string; symbol: string; decimals: number }
  depositor: string
  accounts: string[]
  partnerBase: string
  cardHosts: string[]
  identityUrl: string
  /** The sandbox partner's id in the registry, and its private signing key (the partner server's). */
  partner: string
  signingKey: JsonWebKey
}

export function stackConfig(): StackConfig {
  return JSON.parse(readFileSync(STACK_FILE, 'utf8'))
}

/** The hosted page for a flow, configured for the stack (the same URL `npm start` prints). */
function flowUrl(stack: StackConfig, flow: string, extra: Record<string, string>): string {
  return demoUrl(stack, '/', flow, extra)
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

/** Mines what waits in the mempool, then mines every transaction as it comes again. */
export async function mineAndResume(rpcUrl: string) {
  await rpc(rpcUrl, 'evm_mine')
  await rpc(rpcUrl, 'evm_setAutomine', [true])
}

export type LogEntry = { t: number; method: string; path: string; origin?: string; status: number; fault?: string }
