// Funding a payout by address (issue 40, item 4): the request offered to another wallet or an
// exchange (flows/payout/byAddress.ts), and who may leave the connect step without a wallet.
import { describe, expect, it } from 'vitest'
import { fundingRequest } from '../../../../src/flows/payout/byAddress'
import type { PayoutState } from '../../../../src/flows/payout/machine'
import { erc681 } from '../../../../src/components/PayByAddress'
import { BUYER, DEPOSIT, NOW, OTHER, TOKEN, connectState, ctx, recordOf, runWith, source, toFunding } from '../../helpers/payout'

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
