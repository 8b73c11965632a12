import { describe, expect, it } from 'vitest'
import { decodeFunctionData, parseAbi } from 'viem'
import { TRANSFER_SELECTOR, checkPayout, checkTransfer, transferOf } from '../../../../src/flows/payout/transfer'
import { BUYER as SENDER, source } from '../../helpers/payout'

const abi = parseAbi(['function transfer(address to, uint256 amount)'])
const payout = { depositAddress: '0x1111111111111111111111111111111111111111', depositAmount: '22.282609', chain: 8453 }
describe('the payout transfer', () => {
  it('is a plain ERC-20 transfer of depositAmount to depositAddress on the payout chain, value 0', () => {
    const tx = transferOf(payout, source)
    expect(tx).toMatchObject({ chainId: 8453, to: source.token, value: 0n })
    expect(tx.data.startsWith(TRANSFER_SELECTOR)).toBe(true)
    const call = decodeFunctionData({ abi, data: tx.data as `0x${string}` })
    expect(call.args[0].toLowerCase()).toBe(payout.depositAddress)
    expect(call.args[1]).toBe(22_282_609n)
    expect(checkTransfer(tx, payout, source, SENDER)).toEqual({ ok: true })
  })

  it.each([
    ['chain', { ...transferOf(payout, source), chainId: 42161 }, payout],
    ['token', { ...transferOf(payout, source), to: '0x2222222222222222222222222222222222222222' }, payout],
    ['value', { ...transferOf(payout, source), value: 1n }, payout],
    ['data', { ...transferOf(payout, source), data: `0x095ea7b3${transferOf(payout, source).data.slice(10)}` }, payout],
    ['data', { ...transferOf(payout, source), data: `${transferOf(payout, source).data}00` }, payout],
    ['target', transferOf({ ...payout, depositAddress: '0x3333333333333333333333333333333333333333' }, source), payout],
    ['amount', transferOf({ ...payout, depositAmount: '22.28261' }, source), payout],
    ['chain', transferOf(payout, source), { ...payout, chain: 1 }],
  ])('a transaction that breaks %s is refused before the prompt', (rule, tx, against) => {
    expect(checkTransfer(tx, against, source, SENDER)).toEqual({ ok: false, rule })
  })

  it('never to the sender itself nor the token contract', () => {
    const self = { ...payout, depositAddress: SENDER }
    expect(checkTransfer(transferOf(self, source), self, source, SENDER)).toEqual({ ok: false, rule: 'target' })
    const token = { ...payout, depositAddress: source.token }
    expect(checkTransfer(transferOf(token, source), token, source, SENDER)).toEqual({ ok: false, rule: 'target' })
  })
})

describe('the created payout against the quote', () => {
  const quote = { cryptoAmount: '22.282609' }
  it('the same chain, the quoted amount, a real address', () => {
    expect(checkPayout(payout, quote, source)).toEqual({ ok: true })
    expect(checkPayout({ ...payout, depositAmount: '22.2826090' }, quote, source)).toEqual({ ok: true })
  })
  it.each([
    ['chain', { ...payout, chain: 42161 }],
    ['quote.amount', { ...payout, depositAmount: '23' }],
    ['amount', { ...payout, depositAmount: '0' }],
    ['amount', { ...payout, depositAmount: '1.0000001' }],
    ['target', { ...payout, depositAddress: '0x0000000000000000000000000000000000000000' }],
    ['target', { ...payout, depositAddress: source.token }],
  ])('refuses a payout that breaks %s', (rule, p) => {
    expect(checkPayout(p, quote, source)).toEqual({ ok: false, rule })
  })
})
