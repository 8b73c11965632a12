// Hostile quotes through the deposit's effects, end to end with a fake wallet and a fake RPC: a
// quote that passes guardQuote never reaches eth_sendTransaction unless a full eth_simulateV1
// answer clears it; a refused quote is never used again; an odd expiry does not loop.
import { encodeFunctionData } from 'viem'
import { afterEach, describe, expect, it } from 'vitest'
import type { ApiClient } from '../../../../src/api/client'
import type { DepositQuote } from '../../../../src/api/schemas'
import type { DepositState } from '../../../../src/flows/deposit/machine'
import { systemClock } from '../../../../src/kernel/types'
import { guardQuote, payableByAddress, understood } from '../../../../src/flows/deposit/guard'
import * as actions from '../../../../src/wallet/chainActions'
import { depositConfig as config, driveDeposit } from '../../helpers/deposit'
import { executeAbi, permit2ApproveData } from '../../helpers/calldata'
import { BUYER, DEAD, USDC, announceWallet } from '../../helpers/fakeChain'

const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3'
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

// The deposit was Permit2.approve(USDC, DEAD, 2^160-1, 2^48-1): every USDC of a buyer who ever
// approved Permit2 (most Uniswap users) goes to DEAD. guardQuote now refuses that selector
// ('data.permit2', see hostileQuoteGuard.test.ts), so the same attack goes through an attacker's own
// contract with opaque calldata (it calls Permit2 itself): nothing the guard can decode, so only
// the simulation (or, without eth_simulateV1, the guard's "fully understood" test) stands between
// it and the wallet.
const EVIL = '0x4444444444444444444444444444444444444444'
const hostile: DepositQuote = {
  provider: 'relay',
  amountIn: '25.5',
  amountOut: '25.4',
  fee: '0.1',
  expiresAt: new Date(Date.now() + 10 * 60_000).toISOString(),
  transaction: {
    chainId: 8453,
    to: EVIL,
    data: encodeFunctionData({ abi: executeAbi, functionName: 'execute', args: [PERMIT2, permit2ApproveData(USDC, DEAD)] }),
    value: '0',
  },
}

type Rpc = (method: string, params: unknown[]) => unknown

/** The source chain's RPC: a rich buyer; `simulateV1` says what eth_simulateV1 does. */
function rpc(simulateV1: () => unknown): Rpc {
  return (method, params) => {
    switch (method) {
      case 'eth_simulateV1':
        return simulateV1()
      case 'eth_call': {
        const data = (params[0] as { data: string }).data
        return data.startsWith('0x70a08231') || data.startsWith('0xdd62ed3e') ? `0x${(10n ** 12n).toString(16)}` : '0x'
      }
      case 'eth_estimateGas':
        return '0x10000'
      case 'eth_gasPrice':
        return '0x1'
      case 'eth_getBalance':
        return `0x${(10n ** 18n).toString(16)}`
      default:
        throw Object.assign(new Error(`${method} not stubbed`), { code: -32000 })
    }
  }
}

let cleanups: Array<() => void> = []
afterEach(() => {
  for (const c of cleanups) c()
  cleanups = []
})

const flush = () => new Promise((r) => setTimeout(r, 5))

/** Drives the machine and its effects from `quoting` until the wallet is asked to send, or it settles. */
async function run(quotes: DepositQuote[], chain: Rpc, opts: { confirm?: boolean; steps?: number } = {}) {
  const sends: unknown[] = []
  const methods: string[] = []
  const wallet = {
    request: async ({ method, params }: { method: string; params?: unknown }) => {
      if (method === 'eth_chainId') return '0x2105'
      if (method === 'eth_sendTransaction') {
        sends.push((params as unknown[])[0])
        return `0x${'11'.repeat(32)}`
      }
      if (method === 'wallet_getCapabilities') return {}
      throw new Error(`wallet: ${method}`)
    },
  }
  const target = new EventTarget() as unknown as Window
  const announced = announceWallet(target, wallet, 'test.wallet')
  cleanups.push(announced.stop)
  const session = { wallet: announced.wallet, account: BUYER }
  const reader = { request: async ({ method, params }: { method: string; params: unknown[] }) => (methods.push(method), chain(method, params)) }
  let asked = 0
  const api: ApiClient = { post: async () => quotes[Math.min(asked++, quotes.length - 1)] as never }
  const start = { tag: 'quoting', form: { amount: '25.5', source: 0 }, session, amount: '25.5', requote: false } as DepositState
  const driver = driveDeposit(start, {
    config,
    api,
    target,
    clock: systemClock,
    loadChainActions: async () => ({ ...actions, guardQuote, understood, payableByAddress, readClient: () => reader as never }),
  })
  cleanups.push(driver.dispose)
  const { events, dispatch } = driver
  for (let i = 0; i < (opts.steps ?? 40) && sends.length === 0; i++) {
    await flush()
    const state = driver.state()
    if (opts.confirm !== false && state.tag === 'quote' && state.work === 'idle' && state.preview) dispatch({ type: 'CONFIRM' })
    // The buyer asks for a new price after a refusal.
    if (state.tag === 'form' && asked < quotes.length) dispatch({ type: 'SUBMIT' })
  }
  driver.dispose()
  return { sends, events, methods, quotesAsked: () => asked, state: driver.state }
}

describe('a hostile quote that passes the guard is sent when the simulation is not a full eth_simulateV1', () => {
  it('the Permit2 approve itself is refused by the guard, before any simulation', async () => {
    const direct = {
      ...hostile,
      transaction: {
        ...hostile.transaction,
        to: PERMIT2,
        data: permit2ApproveData(USDC, DEAD),
      },
    }
    const r = await run(
      [direct],
      rpc(() => [{ calls: [{ status: '0x1', gasUsed: '0x10000', logs: [] }] }]),
    )
    expect(r.sends).toEqual([])
    expect(r.methods).not.toContain('eth_simulateV1')
    expect(r.events).toContainEqual({ type: 'QUOTE_REJECTED', rejection: { rule: 'data.permit2' } })
  })

  it('control: with eth_simulateV1, the Permit2 approval is refused (no USDC leaves) and nothing is sent', async () => {
    const r = await run(
      [hostile],
      rpc(() => [{ calls: [{ status: '0x1', gasUsed: '0x10000', logs: [] }] }]),
    )
    expect(r.sends).toEqual([])
    expect(r.events).toContainEqual(expect.objectContaining({ type: 'QUOTE_REJECTED', rejection: expect.objectContaining({ rule: 'simulation.outflow' }) }))
  })

  // No eth_simulateV1 (many public RPCs, or the wallet's RPC): 'estimated' is shown as a "ready"
  // preview of "25.5 USDC + network fee", built from the quote, with no outflow judged at all.
  it('an RPC without eth_simulateV1: the Permit2 approval is never sent', async () => {
    const r = await run(
      [hostile],
      rpc(() => {
        throw Object.assign(new Error('the method eth_simulateV1 does not exist/is not available'), { code: -32601 })
      }),
    )
    expect(r.events).toContainEqual({ type: 'PREVIEW', preview: expect.objectContaining({ kind: 'ready', outflow: [{ amount: '25.5', symbol: 'USDC' }] }) })
    expect(r.sends).toEqual([])
  })

  // Any other failure of the simulation (a 5xx, a timeout, a malformed answer) is 'unavailable',
  // and CONFIRM goes on: the send path never simulates again.
  it('a simulation that fails (RPC error) does not let the quote through to the wallet', async () => {
    const r = await run(
      [hostile],
      rpc(() => {
        throw Object.assign(new Error('internal error'), { code: -32603 })
      }),
    )
    expect(r.events).toContainEqual({ type: 'PREVIEW', preview: { kind: 'unavailable' } })
    expect(r.sends).toEqual([])
  })

  it('a simulation answer with the wrong number of calls does not let the quote through', async () => {
    const r = await run(
      [hostile],
      rpc(() => [{ calls: [] }]),
    )
    expect(r.sends).toEqual([])
  })
})

describe('a refused quote is never used again', () => {
  // The fingerprint is JSON of the quote as sent: the service repeats it with `to` in another case
  // (or value "00") and it is a new quote: guarded and simulated afresh, and sent if the
  // simulation hiccups this time.
  it('the same quote with the target in another case is refused as reused, without a new simulation', async () => {
    let simulations = 0
    const again = { ...hostile, transaction: { ...hostile.transaction, to: EVIL.toUpperCase().replace('0X', '0x'), value: '00' } }
    const r = await run(
      [hostile, again],
      rpc(() => {
        simulations++
        if (simulations === 1) return [{ calls: [{ status: '0x1', gasUsed: '0x10000', logs: [] }] }]
        throw Object.assign(new Error('internal error'), { code: -32603 })
      }),
    )
    expect(r.quotesAsked()).toBe(2)
    const rules = r.events.filter((e) => e.type === 'QUOTE_REJECTED').map((e) => (e as { rejection: { rule: string } }).rejection.rule)
    expect(rules).toEqual(['simulation.outflow', 'reused'])
    expect(r.sends).toEqual([])
  })
})

describe('expiry', () => {
  // A quote already expired on arrival re-quotes at once, again and again (only the shared limiter
  // slows it): "never retry in a loop". setTimeout's delay is a signed 32-bit int (browsers and
  // node alike): an expiresAt more than ~24.8 days away fires at once, so a service that says
  // "valid until 2099" gets the same loop.
  it.each([
    ['arrives expired', '2000-01-01T00:00:00Z'],
    ['is valid for a year', new Date(Date.now() + 365 * 86_400_000).toISOString()],
  ])('a quote that %s is not re-requested in a loop', async (_name, expiresAt) => {
    const quote = { ...hostile, transaction: { ...hostile.transaction, to: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0', data: '0x12345678' }, expiresAt }
    const quotes = Array.from({ length: 50 }, () => quote)
    const r = await run(
      quotes,
      rpc(() => [
        {
          calls: [
            {
              status: '0x1',
              gasUsed: '0x1',
              logs: [
                {
                  address: USDC,
                  topics: [TRANSFER, `0x${BUYER.slice(2).toLowerCase().padStart(64, '0')}`, `0x${'00'.repeat(32)}`],
                  data: `0x${25_500_000n.toString(16).padStart(64, '0')}`,
                },
              ],
            },
          ],
        },
      ]),
      { confirm: false, steps: 20 },
    )
    expect(r.quotesAsked()).toBeLessThanOrEqual(2)
  })
})
