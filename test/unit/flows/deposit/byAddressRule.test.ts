import { concat, maxUint256 } from 'viem'
import { describe, expect, it } from 'vitest'
import type { DepositQuote, DepositQuoteRequest } from '../../../../src/api/schemas'
import { payableByAddress } from '../../../../src/flows/deposit/byAddressRule'
import { BUYER, DEAD, USDC, WETH } from '../../helpers/fakeChain'
import { approveData, transferData } from '../../helpers/calldata'

const ADDRESS = '0x3333333333333333333333333333333333333333'
const token = { chainId: 8453, token: USDC, symbol: 'USDC', decimals: 6 }
const request: DepositQuoteRequest = { source: { chainId: 8453, token: USDC, address: BUYER }, amount: '25.5', method: 'crypto' }
const transfer = transferData

const plain: DepositQuote = {
  provider: 'relay',
  amountIn: '25.50',
  amountOut: '25.31',
  fee: '0.19',
  expiresAt: '2026-11-22T12:00:00Z',
  transaction: { chainId: 8453, to: USDC, data: transfer(ADDRESS, 25_500_000n), value: '0' },
}
const tx = (patch: Partial<DepositQuote['transaction']>): DepositQuote => ({ ...plain, transaction: { ...plain.transaction, ...patch } })

describe('a quote paid by address: only a plain ERC-20 transfer of the asked amount in the quoted token', () => {
  it('a plain transfer gives its deposit address and the amount in base units', () => {
    expect(payableByAddress(request, plain, token)).toEqual({ ok: true, address: ADDRESS, token: USDC, units: '25500000' })
  })

  it.each<[string, DepositQuote, string]>([
    ['an approval beside it', { ...plain, approval: { token: USDC, spender: DEAD, amount: '25500000' } }, 'approval'],
    ['an extra call after the transfer', tx({ data: concat([transfer(ADDRESS, 25_500_000n), approveData(DEAD, maxUint256)]) }), 'call'],
    ['one more byte after the transfer', tx({ data: `${transfer(ADDRESS, 25_500_000n)}00` }), 'call'],
    ['an approve instead', tx({ data: approveData(ADDRESS, 25_500_000n) }), 'call'],
    ['a contract call', tx({ to: DEAD, data: '0x26b3293f' }), 'call'],
    ['another token', tx({ to: WETH }), 'call'],
    ['another amount', tx({ data: transfer(ADDRESS, 25_500_001n) }), 'amount'],
    ['a quote of another amount', { ...plain, amountIn: '25.6' }, 'amount'],
    ['another chain', tx({ chainId: 1 }), 'chain'],
    ['a native value', tx({ value: '1' }), 'call'],
    ['the zero address', tx({ data: transfer('0x0000000000000000000000000000000000000000', 25_500_000n) }), 'call'],
    ['the token itself as the address', tx({ data: transfer(USDC, 25_500_000n) }), 'call'],
  ])('%s: not offered', (_name, quote, why) => {
    expect(payableByAddress(request, quote, token)).toEqual({ ok: false, why })
  })
})
