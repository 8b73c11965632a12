// The guard on a plain transfer: one that also asks for an approval is refused, and router calldata
// the guard cannot read is not "understood" without eth_simulateV1.
import { encodeFunctionData } from 'viem'
import { describe, expect, it } from 'vitest'
import type { DepositQuote, DepositQuoteRequest } from '../../../../src/api/schemas'
import { guardQuote, understood } from '../../../../src/flows/deposit/guard'
import { configFrom } from '../../helpers/links'

const USDC = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const BUYER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const ROUTER = '0x2222222222222222222222222222222222222222'
const DEPOSIT_ADDRESS = '0x3333333333333333333333333333333333333333'
const UNITS = 25_500_000n

const config = configFrom({
  apiBase: 'http://127.0.0.1:8787',
  chains: [{ id: 8453, name: 'Base', rpcUrl: 'http://127.0.0.1:8545', routers: [ROUTER] }],
  sources: [{ chainId: 8453, token: USDC, symbol: 'USDC', decimals: 6 }],
})
const request: DepositQuoteRequest = { source: { chainId: 8453, token: USDC, address: BUYER }, amount: '25.5', method: 'crypto' }
const base = { provider: 'p', amountIn: '25.5', amountOut: '25.4', fee: '0.1', expiresAt: '2026-11-23T12:00:00.000Z' }
const erc20Transfer = encodeFunctionData({
  abi: [
    {
      type: 'function',
      name: 'transfer',
      stateMutability: 'nonpayable',
      inputs: [
        { name: 'to', type: 'address' },
        { name: 'amount', type: 'uint256' },
      ],
      outputs: [{ type: 'bool' }],
    },
  ],
  functionName: 'transfer',
  args: [DEPOSIT_ADDRESS, UNITS],
})

describe('guard: a plain transfer quote', () => {
  it.each([
    ['one byte', '00'],
    ['a second call', erc20Transfer.slice(2)],
  ])('a transfer of amountIn with %s after its arguments is refused: the wallet would sign more than the guard read', (_what, extra) => {
    const quote: DepositQuote = { ...base, transaction: { chainId: 8453, to: USDC, data: `${erc20Transfer}${extra}`, value: '0' } }
    expect(guardQuote(request, quote, config)).toEqual({ ok: false, rule: 'data.malformed' })
    // The same transfer without the tail passes.
    expect(guardQuote(request, { ...quote, transaction: { ...quote.transaction, data: erc20Transfer } }, config)).toEqual({ ok: true })
  })

  it('a plain transfer of amountIn that also asks for an approval is refused (the approval would be left over)', () => {
    const quote: DepositQuote = {
      ...base,
      approval: { token: USDC, spender: ROUTER, amount: UNITS.toString() },
      transaction: { chainId: 8453, to: USDC, data: erc20Transfer, value: '0' },
    }
    expect(guardQuote(request, quote, config)).toEqual({ ok: false, rule: 'approval.unneeded' })
  })

  it('without eth_simulateV1, a call to a listed router with calldata the guard cannot read is not "understood"', () => {
    // An allowance the buyer once gave the router would let unreadable calldata pull more than amountIn.
    const quote: DepositQuote = { ...base, transaction: { chainId: 8453, to: ROUTER, data: `0xdeadbeef${'00'.repeat(64)}`, value: '0' } }
    expect(guardQuote(request, quote, config).ok).toBe(true)
    expect(understood(request, quote, config)).toBe(false)
  })

  it('a plain transfer of exactly amountIn, fully decoded by the guard, is understood', () => {
    const quote: DepositQuote = { ...base, transaction: { chainId: 8453, to: USDC, data: erc20Transfer, value: '0' } }
    expect(understood(request, quote, config)).toBe(true)
  })
})
