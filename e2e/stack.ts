import { readFileSync } from 'node:fs'

export const STACK_FILE = '.sandbox-state/e2e-stack.json'

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
}

export function stackConfig(): StackConfig {
  return JSON.parse(readFileSync(STACK_FILE, 'utf8'))
}

export function widgetUrl(stack: StackConfig, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({
    flow: 'deposit',
    apiBase: stack.apiBase,
    sandbox: '1',
    chains: JSON.stringify(stack.chains),
    sources: JSON.stringify(stack.sources),
    ...extra,
  })
  return `/?${params}`
}

export function cardUrl(stack: StackConfig, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({
    flow: 'card',
    apiBase: stack.apiBase,
    partnerBase: stack.partnerBase,
    cardHosts: stack.cardHosts.join(','),
    currencies: 'EUR,USD,GBP',
    cardCrypto: 'ETH',
    ...extra,
  })
  return `/?${params}`
}

export function fiatUrl(stack: StackConfig, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ flow: 'onboarding', apiBase: stack.apiBase, identityUrl: stack.identityUrl, ...extra })
  return `/?${params}`
}

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

export type LogEntry = { t: number; method: string; path: string; origin?: string; status: number; fault?: string }
