// Funding a payout by address (issue 40, item 4): the request offered to another wallet or an
// exchange (flows/payout/byAddress.ts), and who may leave the connect step without a wallet.
import { describe, expect, it } from 'vitest'
import { fundingRequest } from '../../../../src/flows/payout/byAddress'
import type { PayoutState } from '../../../../src/flows/payout/machine'
import type { PayoutRecord } from '../../../../src/flows/payout/record'
import { erc681 } from '../../../../src/components/PayByAddress'
import { BUYER, DEPOSIT, NOW, OTHER, TOKEN, buyer, connectState, ctx, recordOf, runWith, source, toFunding, wallet } from '../../helpers/payout'

describe('the payout’s funding as a request for another wallet or an exchange', () => {
  it('is the one transfer: the embedding’s token on the payout’s chain, to its address, the exact amount in base units', () => {
    const request = fundingRequest(recordOf(), source)
    expect(request).toEqual({ address: DEPOSIT, token: TOKEN, chainId: 8453, units: '22282609' })
    expect(erc681(request!)).toBe(`ethereum:${TOKEN}@8453/transfer?address=${DEPOSIT}&uint256=22282609`)
  })

  it('is not offered once a wallet was asked for the transfer (a second transfer could pay the payout twice)', () => {
    expect(fundingRequest(recordOf({ promptedAt: NOW }), source)).toBeUndefined()
  })

  it('is not offered for a payout the embedding’s token does not fund, nor on another chain, nor to an address the send would refuse', () => {
    expect(fundingRequest(recordOf({ token: OTHER }), source)).toBeUndefined()
    expect(fundingRequest(recordOf({ decimals: 18 }), source)).toBeUndefined()
    expect(fundingRequest(recordOf({ chain: 1 }), source)).toBeUndefined()
    expect(fundingRequest(recordOf({ depositAddress: TOKEN }), source)).toBeUndefined()
    expect(fundingRequest(recordOf({ depositAddress: `0x${'0'.repeat(40)}` }), source)).toBeUndefined()
    expect(fundingRequest(recordOf({ depositAmount: '0' }), source)).toBeUndefined()
    expect(fundingRequest(recordOf({ depositAmount: '1.0000001' }), source)).toBeUndefined()
  })
})

const atConnect = (known?: { accountId: string; walletId: string; wallet: string }): PayoutState => connectState(known)

describe('the connect step without a wallet', () => {
  const byAddress = toFunding({ type: 'BY_ADDRESS' })

  it('a known buyer goes on to the beneficiary with their account’s wallet named as the funder, no wallet connected', () => {
    const known = { accountId: 'acc_1', walletId: 'w_1', wallet: BUYER }
    const next = runWith(ctx)(atConnect(known), byAddress)
    expect(next).toMatchObject({ tag: 'beneficiary', buyer: known, funder: { sender: BUYER } })
    expect(next.tag === 'beneficiary' && next.funder?.wallet).toBeFalsy()
  })

  it('under a link signed for a wallet, a new buyer is verified with that wallet, not asked for one', () => {
    const next = runWith({ ...ctx, linkWallet: OTHER })(atConnect(), byAddress)
    expect(next).toMatchObject({ tag: 'identity', form: { wallet: OTHER }, pending: { funder: { sender: OTHER } } })
  })

  it('a buyer whose wallet nobody knows yet stays: the identity steps verify the wallet connected', () => {
    const state = atConnect()
    expect(runWith(ctx)(state, byAddress)).toBe(state)
  })

  it('not while a wallet is being asked for its account', () => {
    const state = { ...atConnect({ accountId: 'acc_1', walletId: 'w_1', wallet: BUYER }), work: 'connecting' } as PayoutState
    expect(runWith(ctx)(state, byAddress)).toBe(state)
  })
})

/** The funding step of a payout that exists: no wallet connected, unless `sender` is given. */
const atFunding = (record: Partial<PayoutRecord> = {}, sender?: string): PayoutState => ({
  tag: 'funding',
  buyer,
  record: recordOf(record),
  connection: { tag: 'wallets', wallets: [] },
  work: 'idle',
  ...(sender ? { sender, wallet } : {}),
})

describe('a payout offered by address, then a wallet: never funded twice on its own', () => {
  it('the connect step’s choice is kept with the funder, so the payout is created offered by address', () => {
    const next = runWith(ctx)(atConnect({ accountId: 'acc_1', walletId: 'w_1', wallet: BUYER }), toFunding({ type: 'BY_ADDRESS' }))
    expect(next).toMatchObject({ funder: { sender: BUYER, byAddress: true } })
  })

  it('at the funding step with no wallet, the buyer asks for the request: the payout is marked offered', () => {
    const next = runWith(ctx)(atFunding(), toFunding({ type: 'OFFER', now: NOW }))
    expect(next).toMatchObject({ tag: 'funding', record: { offeredAt: NOW } })
  })

  it('not once a wallet is connected, nor once a wallet was asked for the transfer', () => {
    const connected = atFunding({}, BUYER)
    expect(runWith(ctx)(connected, toFunding({ type: 'OFFER', now: NOW }))).toBe(connected)
    const prompted = atFunding({ promptedAt: NOW })
    expect(runWith(ctx)(prompted, toFunding({ type: 'OFFER', now: NOW }))).toBe(prompted)
  })

  it('a wallet connected after the offer sends only on the buyer’s word that nothing went another way', () => {
    const offered = atFunding({ offeredAt: NOW }, BUYER)
    expect(runWith(ctx)(offered, toFunding({ type: 'CONFIRM', now: NOW }))).toBe(offered)
    expect(runWith(ctx)(offered, toFunding({ type: 'CONFIRM', now: NOW, confirmed: true }))).toMatchObject({ work: 'checking' })
  })

  it('a payout never offered by address sends on the first confirmation, as before', () => {
    expect(runWith(ctx)(atFunding({}, BUYER), toFunding({ type: 'CONFIRM', now: NOW }))).toMatchObject({ work: 'checking' })
  })
})

describe('starting over once the payout was offered by address', () => {
  it('needs the buyer’s word that nothing was sent another way: a transfer on its way would no longer be followed here', () => {
    const offered = atFunding({ offeredAt: NOW })
    expect(runWith(ctx)(offered, toFunding({ type: 'RESTART' }))).toBe(offered)
    expect(runWith(ctx)(offered, toFunding({ type: 'RESTART', confirmed: true }))).toMatchObject({ tag: 'form', abandoned: 'bp_1' })
  })

  it('a payout never offered by address starts over on one click, as before', () => {
    expect(runWith(ctx)(atFunding(), toFunding({ type: 'RESTART' }))).toMatchObject({ tag: 'form', abandoned: 'bp_1' })
  })
})
