import { describe, expect, it } from 'vitest'
import { byAddressTransition } from '../../../../src/flows/deposit/byAddress'
import { type Context, type DepositState, type Tracking, initialState, transition } from '../../../../src/flows/deposit/machine'

const ctx: Context = { sourceDecimals: [6], decimalMark: '.', byAddress: byAddressTransition }
const watch = {
  address: '0x3333333333333333333333333333333333333333',
  token: '0x1111111111111111111111111111111111111111',
  units: '12500000',
  fromBlock: '7',
  expiresAt: '2026-11-27T12:00:00Z',
}
const tracking: Tracking = {
  provider: 'p',
  chainId: 8453,
  txHash: '',
  summary: { amountIn: '12.5', amountOut: '12.4875', fee: '0.0125', sourceChainId: 8453, destChainId: 42161, sourceSymbol: 'USDC', destSymbol: 'USDC' },
  createdAt: 0,
  watch,
}
/** The buyer's amount asked of the service: its quote on the way. */
const quoting: DepositState = {
  tag: 'byAddress',
  form: { amount: '12.5', source: 0 },
  receiver: watch.address,
  locked: false,
  stage: 'quoting',
  amount: '12.5',
}
const by = (state: DepositState, event: Parameters<typeof byAddressTransition>[1], c = ctx) => transition(state, { type: 'BY_ADDRESS', event }, c)

describe('paying by address, as the machine sees it', () => {
  it('starts from the wallet step, asks for a valid receiving address, and quotes', () => {
    let s = by({ tag: 'wallets', wallets: [], form: { amount: '', source: 0 } }, { type: 'START' })
    expect(s).toMatchObject({ tag: 'byAddress', stage: 'form', locked: false })
    s = by(s, { type: 'EDIT', amount: '12.5', receiver: '0x12' })
    expect(by(s, { type: 'SUBMIT' })).toMatchObject({ error: { kind: 'receiver' } })
    s = by(s, { type: 'EDIT', receiver: watch.address })
    expect(by(s, { type: 'SUBMIT' })).toMatchObject({ stage: 'quoting', amount: '12.5' })
  })

  it('with the kit and no fixed address, asks no receiving address: none is checked, none is taken, and the amount alone quotes', () => {
    let s = by({ tag: 'wallets', wallets: [], form: { amount: '', source: 0 } }, { type: 'START', kit: true })
    expect(s).toMatchObject({ tag: 'byAddress', stage: 'form', receiver: '', kit: true })
    s = by(s, { type: 'EDIT', amount: '12.5', receiver: '0x12' })
    expect(s).toMatchObject({ receiver: '' })
    expect(by(s, { type: 'SUBMIT' })).toMatchObject({ stage: 'quoting', amount: '12.5', receiver: '', error: undefined })
    // The amount is still checked.
    expect(by(by(s, { type: 'EDIT', amount: 'x' }), { type: 'SUBMIT' })).toMatchObject({ stage: 'form', error: { kind: 'amount' } })
  })

  it('a fixed destination address is taken and never edited', () => {
    const s = by({ tag: 'discovering', form: { amount: '', source: 0 } }, { type: 'START', receiver: watch.address })
    expect(by(s, { type: 'EDIT', receiver: '0x0' })).toMatchObject({ receiver: watch.address, locked: true })
  })

  it('nothing happens before its code is here', () => {
    const s: DepositState = { tag: 'wallets', wallets: [], form: { amount: '', source: 0 } }
    expect(by(s, { type: 'START' }, { ...ctx, byAddress: undefined })).toBe(s)
  })

  it('a quote shown is a watch, resumed as such after a reload; the transfer found is followed from its hash', () => {
    const watching = by(quoting, { type: 'QUOTED', tracking })
    expect(watching).toMatchObject({ tag: 'tracking', phase: 'watching' })
    expect(initialState(tracking)).toMatchObject({ tag: 'tracking', phase: 'watching' })
    const stray = by(watching, { type: 'STRAY', stray: { txHash: '0xaa', token: watch.token, units: '1' } })
    expect(by(stray, { type: 'STRAY', stray: { txHash: '0xaa', token: watch.token, units: '1' } })).toBe(stray)
    expect(by(stray, { type: 'FOUND', txHash: '0xbb' })).toMatchObject({ tag: 'tracking', phase: 'confirming', tracking: { txHash: '0xbb', watch } })
  })

  it('a refused quote says why and goes back to the form', () => {
    const refused = by(quoting, { type: 'REFUSED', refusal: 'approval' })
    expect(refused).toMatchObject({ stage: 'refused', refusal: 'approval' })
    expect(by(refused, { type: 'BACK' })).toMatchObject({ stage: 'form', refusal: undefined })
  })
})
