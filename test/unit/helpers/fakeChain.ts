// A fake chain and wallet for the deposit's effects: a ChainActions whose every action is a vi.fn
// with a happy default (override any per test), and EIP-6963 announcement of a fake provider so
// providerOf/providerByRdns find it. `prompts` lists what the buyer was asked to sign, in order.
import type { Client, Hex } from 'viem'
import { vi } from 'vitest'
import { guardQuote, payableByAddress, understood } from '../../../src/flows/deposit/guard'
import type { ChainActions as Actions } from '../../../src/flows/deposit/walletCode'
import * as chain from '../../../src/wallet/chainActions'
import { type Eip1193Provider, discoverWallets } from '../../../src/wallet/eip6963'

export type ChainActions = Actions
const actual: Actions = { ...chain, guardQuote, understood, payableByAddress }
export type Prompt = 'switch' | 'approve' | 'send' | 'batch'

export const BUYER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
export const USDC = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
export const DEPOSITOR = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0'
export const SPENDER = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9'
/** Where a hostile quote sends what it takes. */
export const DEAD = '0x000000000000000000000000000000000000dEaD'
export const WETH = '0x4200000000000000000000000000000000000006'
export const hashOf = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex

/** A receipt that never comes, until the effect stops waiting (its signal aborts). */
export const never = (signal?: AbortSignal) =>
  new Promise<never>((_, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true }))

export function fakeChain(overrides: Partial<ChainActions> = {}) {
  const prompts: Prompt[] = []
  let sent = 0
  const base = {
    connect: vi.fn(async () => BUYER as string | undefined),
    currentChainId: vi.fn(async () => 8453),
    ensureChain: vi.fn(async () => (prompts.push('switch'), true)),
    readClient: vi.fn(() => ({}) as Client),
    tokenBalance: vi.fn(async () => 10n ** 12n),
    nativeBalance: vi.fn(async () => 10n ** 18n),
    allowance: vi.fn(async () => 0n),
    approveData: vi.fn(() => '0x095ea7b3' as Hex),
    send: vi.fn(async (_p: Eip1193Provider, _c: unknown, _a: Hex, tx: chain.Call) => {
      prompts.push(tx.to.toLowerCase() === USDC.toLowerCase() ? 'approve' : 'send')
      return hashOf(++sent)
    }),
    sentTransaction: vi.fn(async () => ({ from: BUYER as Hex, nonce: 7 }) as chain.SentTransaction | undefined),
    waitReceipt: vi.fn(async (_r: Client, hash: Hex, _on: (r: chain.Replacement) => void, _s?: chain.SentTransaction, _signal?: AbortSignal) => ({
      success: true,
      txHash: hash as string,
      logs: [] as Array<{ address: string; topics: string[] }>,
    })),
    simulate: vi.fn(async (): Promise<chain.Simulation> => ({ kind: 'ok', changes: [{ token: USDC, diff: -25_500_000n }], gasUsed: 21_000n, gasPrice: 1n })),
    canBatch: vi.fn(async () => false),
    sendBatch: vi.fn(async () => (prompts.push('batch'), 'batch-1')),
    batchStatus: vi.fn(async (): Promise<chain.BatchStatus> => ({ status: 'pending' })),
    guardQuote: vi.fn((): ReturnType<ChainActions['guardQuote']> => ({ ok: true })),
    understood: vi.fn(() => true),
  }
  const actions = { ...actual, ...base, ...overrides } as ChainActions & typeof base
  return { actions, prompts, load: vi.fn(async () => actions) }
}

/** A provider that answers nothing on its own (the fake ChainActions never call it). */
export const fakeProvider = (): Eip1193Provider => ({ request: async ({ method }) => Promise.reject(new Error(`provider: ${method}`)) })

/**
 * A wallet (EIP-6963) that announces `provider` now and whenever a page asks; the wallet's info,
 * and how to stop it.
 */
export function announceWallet(target: Window, provider: Eip1193Provider = fakeProvider(), rdns = `test.wallet${Math.random().toString(36).slice(2)}`) {
  const uuid = `u${Math.random().toString(36).slice(2)}`
  const announce = () => target.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: { info: { uuid, name: 'Test', rdns }, provider } }))
  target.addEventListener('eip6963:requestProvider', announce)
  const stopListening = discoverWallets(target, () => {})
  announce()
  const stop = () => {
    stopListening()
    target.removeEventListener('eip6963:requestProvider', announce)
  }
  return { wallet: { id: `${uuid}|${rdns}`, name: 'Test', rdns }, provider, stop }
}
