// Hostile quotes against guardQuote and the simulated preview: approval-granting calldata off the
// selector list, and outflows or grants only the simulation shows.
import { type Hex, encodeFunctionData, maxUint256, pad } from 'viem'
import { describe, expect, it } from 'vitest'
import type { DepositQuote, DepositQuoteRequest } from '../../../../src/api/schemas'
import { guardQuote } from '../../../../src/flows/deposit/guard'
import { judgeOutflow } from '../../../../src/flows/deposit/preview'
import { simulate } from '../../../../src/wallet/chainActions'
import { approveData, grantAbi, permit2ApproveData } from '../../helpers/calldata'
import { depositConfig } from '../../helpers/deposit'
import { BUYER, DEAD, DEPOSITOR, USDC, WETH } from '../../helpers/fakeChain'

const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3'
const NFT = '0x1111111111111111111111111111111111111111'
const UNITS = 25_500_000n

// One source, USDC on Base.
const config = depositConfig

const request: DepositQuoteRequest = {
  source: { chainId: 8453, token: USDC, address: BUYER },
  amount: '25.5',
  method: 'crypto',
}

const direct = (to: string, data: string): DepositQuote => ({
  provider: 'relay',
  amountIn: '25.5',
  amountOut: '25.4',
  fee: '0.1',
  expiresAt: '2099-01-01T00:00:00Z',
  transaction: { chainId: 8453, to, data, value: '0' },
})

// Permit2's approve(token, spender, uint160, uint48): the buyer's standing Permit2 allowance on USDC goes to DEAD, unlimited.
const permit2Approve = permit2ApproveData(USDC, DEAD)
const setApprovalForAll = encodeFunctionData({ abi: grantAbi, functionName: 'setApprovalForAll', args: [DEAD, true] })
const increaseApproval = encodeFunctionData({ abi: grantAbi, functionName: 'increaseApproval', args: [DEAD, maxUint256] })
const authorizeOperator = encodeFunctionData({ abi: grantAbi, functionName: 'authorizeOperator', args: [DEAD] })

describe('guardQuote: approval-granting calldata that is not on the selector list', () => {
  // The guard only knows transfer/transferFrom/approve/increaseAllowance by selector; any other
  // allowance-granting call on a contract other than the source token passes.
  it.each([
    ['Permit2 approve(USDC, DEAD, 2^160-1, 2^48-1) as the deposit', direct(PERMIT2, permit2Approve)],
    ['setApprovalForAll(DEAD, true) on an NFT / ERC-1155 contract', direct(NFT, setApprovalForAll)],
    ['increaseApproval(DEAD, 2^256-1) on WETH (pre-OZ-4 name)', direct(WETH, increaseApproval)],
    ['ERC-777 authorizeOperator(DEAD) on another token', direct(WETH, authorizeOperator)],
  ])('%s is refused', (_name, quote) => {
    expect(guardQuote(request, quote, config).ok).toBe(false)
  })
})

// A read client that answers eth_simulateV1 with the given logs, all calls successful.
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const APPROVAL = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'
const APPROVAL_FOR_ALL = '0x17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31'
const TRANSFER_SINGLE = '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62'
const word = (a: string) => pad(a.toLowerCase() as Hex, { size: 32 })
const uint = (n: bigint) => pad(`0x${n.toString(16)}` as Hex, { size: 32 })

function simulatingClient(logs: Array<{ address: string; topics: string[]; data: Hex }>, onSimulate?: () => unknown) {
  return {
    request: async ({ method }: { method: string }) => {
      if (method === 'eth_simulateV1') {
        if (onSimulate) return onSimulate()
        return [{ calls: [{ status: '0x1', gasUsed: '0x10000', logs, returnData: '0x' }] }]
      }
      if (method === 'eth_gasPrice') return '0x1'
      if (method === 'eth_call') return '0x'
      if (method === 'eth_estimateGas') return '0x10000'
      throw new Error(`unexpected ${method}`)
    },
  } as never
}

const expected = { token: USDC, amountIn: UNITS, decimals: 6, symbol: 'USDC', native: false, value: 0n, feeSymbol: 'ETH' }
const sourceLeaves = { address: USDC, topics: [TRANSFER, word(BUYER), word(DEPOSITOR)], data: uint(UNITS) }
const call = [{ to: DEPOSITOR as Hex, data: '0x12345678' as Hex, value: 0n }]

describe('the simulated preview: outflows and grants it cannot see', () => {
  // A deposit call on a router-like contract (msg.sender preserved through a delegatecall
  // multicall, e.g. Uniswap's NonfungiblePositionManager) that takes exactly amountIn of USDC AND
  // grants DEAD an approval over the buyer's other assets: no Transfer log, so no "outflow".
  it('an ApprovalForAll(buyer → DEAD) emitted during the deposit blocks the send', async () => {
    const grant = { address: NFT, topics: [APPROVAL_FOR_ALL, word(BUYER), word(DEAD)], data: uint(1n) }
    const sim = await simulate(simulatingClient([sourceLeaves, grant]), BUYER, call)
    expect(sim.kind).toBe('ok')
    if (sim.kind !== 'ok') return
    expect(judgeOutflow(sim.changes, expected, 0n).ok).toBe(false)
  })

  it('an ERC-20 Approval(buyer → DEAD, 2^256-1) on WETH emitted during the deposit blocks the send', async () => {
    const grant = { address: WETH, topics: [APPROVAL, word(BUYER), word(DEAD)], data: uint(maxUint256) }
    const sim = await simulate(simulatingClient([sourceLeaves, grant]), BUYER, call)
    if (sim.kind !== 'ok') throw new Error(sim.kind)
    expect(judgeOutflow(sim.changes, expected, 0n).ok).toBe(false)
  })

  // ERC-1155 moves assets with TransferSingle/TransferBatch, never Transfer: an operator the buyer
  // once approved (the deposit target) can take their 1155 tokens and the preview says "25.5 USDC".
  it('an ERC-1155 TransferSingle out of the buyer is an outflow', async () => {
    const taken = { address: NFT, topics: [TRANSFER_SINGLE, word(DEPOSITOR), word(BUYER), word(DEAD)], data: `${uint(7n)}${uint(1000n).slice(2)}` as Hex }
    const sim = await simulate(simulatingClient([sourceLeaves, taken]), BUYER, call)
    if (sim.kind !== 'ok') throw new Error(sim.kind)
    expect(judgeOutflow(sim.changes, expected, 0n).ok).toBe(false)
  })

  // "header not found" is geth's everyday answer from a load-balanced RPC a block behind: it
  // matches isUnsupported's /not found/, so the outflow check silently becomes eth_call+estimateGas
  // (which judges nothing, and only runs the first call).
  it('a transient "header not found" from eth_simulateV1 is not taken for "no eth_simulateV1"', async () => {
    const client = simulatingClient([], () => {
      throw Object.assign(new Error('header not found'), { code: -32000 })
    })
    await expect(simulate(client, BUYER, call)).rejects.toThrow()
  })
})

describe('what held', () => {
  it('a hidden approve / transfer of another amount / permit on the source token are refused', () => {
    const approve = approveData(DEAD, 1n)
    expect(guardQuote(request, direct(PERMIT2, approve), config)).toEqual({ ok: false, rule: 'data.approve' })
    expect(guardQuote(request, direct(USDC, '0xd505accf'), config)).toEqual({ ok: false, rule: 'data.token' })
    expect(guardQuote(request, direct(USDC, '0x'), config)).toEqual({ ok: false, rule: 'data.token' })
  })

  it.each([
    ['25.500000001', 'amount'],
    ['25.5000001', 'amount'],
    ['25.500001', 'amount'],
    ['255', 'amount'],
  ])('amountIn %s → %s', (amountIn, rule) => {
    expect(guardQuote(request, { ...direct(DEPOSITOR, '0x12345678'), amountIn }, config)).toEqual({ ok: false, rule })
  })

  it('an equal amount written with leading / trailing zeros is the same amount (no trick)', () => {
    expect(guardQuote(request, { ...direct(DEPOSITOR, '0x12345678'), amountIn: '0025.500000' }, config)).toEqual({ ok: true })
  })

  it('a second Transfer of another token out of the buyer is an outflow', async () => {
    const weth = { address: WETH, topics: [TRANSFER, word(BUYER), word(DEAD)], data: uint(10n ** 18n) }
    const sim = await simulate(simulatingClient([sourceLeaves, weth]), BUYER, call)
    if (sim.kind !== 'ok') throw new Error(sim.kind)
    expect(judgeOutflow(sim.changes, expected, 0n).ok).toBe(false)
  })

  it('ETH leaving as the value of a later call is an outflow on an ERC-20 deposit', async () => {
    const client = {
      request: async ({ method }: { method: string }) =>
        method === 'eth_gasPrice'
          ? '0x1'
          : [
              {
                calls: [
                  { status: '0x1', gasUsed: '0x1', logs: [] },
                  { status: '0x1', gasUsed: '0x1', logs: [sourceLeaves] },
                ],
              },
            ],
    } as never
    const sim = await simulate(client, BUYER, [
      { to: USDC, data: '0x095ea7b3', value: 0n },
      { to: DEPOSITOR, data: '0x12345678', value: 10n ** 17n },
    ])
    if (sim.kind !== 'ok') throw new Error(sim.kind)
    expect(judgeOutflow(sim.changes, expected, 0n).ok).toBe(false)
  })
})
