// The deposit's machine and effects run together, as useFlowMachine runs them, with every seam
// faked: a config with one source (USDC on 8453, with its own RPC), quotes priced at the fake
// clock's time, and a driver that records each event the effects dispatch.
import type { DepositQuote } from '../../../src/api/schemas'
import type { WidgetConfig } from '../../../src/config/config'
import { type DepositDeps, createDepositEffects } from '../../../src/flows/deposit/effects'
import { type DepositEvent, type DepositState, type Preview, type Tracking, transition } from '../../../src/flows/deposit/machine'
import { depositStore } from '../../../src/flows/deposit/persisted'
import { memoryStorage } from './memoryStorage'
import { vi } from 'vitest'
import { BUYER, DEPOSITOR, SPENDER, USDC, announceWallet, fakeChain } from './fakeChain'
import { createFakeClock } from './fakeClock'
import { fakeApi } from './fakeApi'
import { useFakeQueryTime } from './queryTime'
import { partnerDoor } from './partnerDoor'
import { configFrom } from './links'

export const START = Date.parse('2026-11-23T12:00:00Z')

export const depositConfig: WidgetConfig = configFrom({
  apiBase: 'http://127.0.0.1:8787',
  chains: [{ id: 8453, name: 'Base', rpcUrl: 'http://127.0.0.1:8545' }],
  sources: [{ chainId: 8453, token: USDC, symbol: 'USDC', decimals: 6 }],
})

/** A quote for 25.5 USDC valid `ttlMs` from `now`; `approval` asks for an allowance first. */
export function depositQuote(now: number, ttlMs = 60_000, opts: { approval?: boolean } = {}): DepositQuote {
  return {
    provider: 'relay',
    amountIn: '25.5',
    amountOut: '25.4',
    fee: '0.1',
    expiresAt: new Date(now + ttlMs).toISOString(),
    ...(opts.approval ? { approval: { token: USDC, spender: SPENDER, amount: '25500000' } } : {}),
    transaction: { chainId: 8453, to: DEPOSITOR, data: '0x12345678', value: '0' },
  }
}

export const form = { amount: '25.5', source: 0 }

/** The simulated preview of the 25.5 USDC deposit: only that leaves the wallet, plus the network fee. */
export const safePreview: Preview = { kind: 'ready', safe: true, outflow: [{ amount: '25.5', symbol: 'USDC' }], feeSymbol: 'ETH' }

/** The deposit at its confirm screen: 25.5 USDC quoted at START, its price (`preview`, null: not yet) shown. */
export const quotedDeposit = (
  session: Extract<DepositState, { tag: 'quote' }>['session'],
  quote = depositQuote(START),
  preview: Preview | null = safePreview,
): Extract<DepositState, { tag: 'quote' }> => ({
  tag: 'quote',
  form,
  session,
  amount: '25.5',
  work: 'idle',
  quote,
  quotedAt: START,
  preview: preview ?? undefined,
})
export const sessionOf = (wallet: { id: string; name: string; rdns: string }) => ({ wallet: { kind: 'injected' as const, ...wallet }, account: BUYER })

export function trackingOf(txHash: string, walletRdns?: string, extra: Partial<Tracking> = {}): Tracking {
  return {
    provider: 'relay',
    chainId: 8453,
    txHash,
    walletRdns,
    summary: { amountIn: '25.5', amountOut: '25.4', fee: '0.1', sourceChainId: 8453, destChainId: 42161, sourceSymbol: 'USDC', destSymbol: 'USDC' },
    createdAt: START,
    ...extra,
  }
}

const machineContext = { sourceDecimals: [6], decimalMark: '.' as const }

export type DepositDriver = ReturnType<typeof driveDeposit>

/** Runs `start` through the real transition and the effects under test; `events` is what they dispatched. */
export function driveDeposit(
  start: DepositState,
  deps: Omit<DepositDeps, 'config' | 'store' | 'partner'> & Partial<Pick<DepositDeps, 'config' | 'store' | 'partner'>>,
) {
  const events: DepositEvent[] = []
  let state = start
  const store = deps.store ?? depositStore(memoryStorage())
  const config = deps.config ?? depositConfig
  const effects = createDepositEffects({ config, store, partner: partnerDoor(config), ...deps }, (event) => dispatch(event))
  function dispatch(event: DepositEvent) {
    events.push(event)
    state = transition(state, event, machineContext)
    effects.run(state)
  }
  effects.run(state)
  return {
    events,
    store,
    dispatch,
    state: () => state,
    types: () => events.map((e) => e.type),
    dispose: () => effects.dispose(),
  }
}

/** A fresh world for a deposit test, made in this order: the fake clock at START (the queries' time too), a window where a fake wallet announces itself, its chain, the fake API. */
export type DepositWorld = ReturnType<typeof depositWorld>
export function depositWorld() {
  const clock = createFakeClock(START)
  useFakeQueryTime(clock)
  const target = new EventTarget() as unknown as Window
  const announced = announceWallet(target)
  return { clock, target, announced, chain: fakeChain(), api: fakeApi() }
}

/** Ends a depositWorld: the driver (if any) disposed, the wallet's announcing stopped, the stubbed globals restored. */
export function endDepositWorld(driver: DepositDriver | undefined, announced: { stop: () => void }) {
  driver?.dispose()
  announced.stop()
  vi.unstubAllGlobals()
}

/** A deposit summary of USDC on Base to USDC on Arbitrum, for these amounts. */
export const summaryOf = (amountIn: string, amountOut: string, fee: string) => ({
  amountIn,
  amountOut,
  fee,
  sourceChainId: 8453,
  destChainId: 42161,
  sourceSymbol: 'USDC',
  destSymbol: 'USDC',
})

/** A quote from provider 'p' for these amounts, sending to 0x…01 on Base, expiring 2026-11-22T12:00:00Z. */
export const plainQuote = (amountIn: string, amountOut: string, fee: string): DepositQuote => ({
  provider: 'p',
  amountIn,
  amountOut,
  fee,
  expiresAt: '2026-11-22T12:00:00Z',
  transaction: { chainId: 8453, to: '0x0000000000000000000000000000000000000001', data: '0x', value: '0' },
})

/** A tracking from provider 'p' on Base of `txHash`, for these amounts, created at 0. */
export const plainTracking = (txHash: string, amountIn: string, amountOut: string, fee: string): Tracking => ({
  provider: 'p',
  chainId: 8453,
  txHash,
  summary: summaryOf(amountIn, amountOut, fee),
  createdAt: 0,
})

/** An injected wallet 'w' holding the buyer's account. */
export const plainSession = { wallet: { kind: 'injected' as const, id: 'w', name: 'W', rdns: 'w' }, account: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }
