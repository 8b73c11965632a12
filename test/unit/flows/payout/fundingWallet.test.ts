// Review of issue 31: the wallet that funds a payout against the buyer it is created for. The
// contract's accountId is "the paying user (whose identity result is held and whose wallet funds
// the payout)" (partner-api.md, POST /v1/bank/payout). The price-first order connects a wallet
// before anything personal, and verifies that connected wallet for an unknown buyer; these tests
// hold the other two ways in to the same rule: a buyer already known (this device's, or a link's
// signed accountId), and a link signed for a walletAddress.
import { describe, expect, it } from 'vitest'
import { emptyDraft } from '../../../../src/flows/payout/base'
import { type Context, type PayoutEvent, type PayoutState, transition } from '../../../../src/flows/payout/machine'
import { BUYER as VERIFIED, NOW, OTHER, bankQuote, otherWallet as wallet, ctx, choose, toFunding, toIdentity } from '../../helpers/payout'

const quote = bankQuote()
const same = (a?: string, b?: string) => !!a && !!b && a.toLowerCase() === b.toLowerCase()

const quoted = (buyer?: { accountId: string; walletId: string; wallet: string }): PayoutState => ({
  tag: 'quote',
  ...(buyer ? { buyer } : {}),
  form: { kind: 'fiat', amount: '20', currency: 'EUR', country: 'DE', rail: '' },
  draft: emptyDraft(),
  ask: { kind: 'fiat', amount: '20', currency: 'EUR', country: 'DE' },
  quote,
  quotedAt: NOW,
  work: 'idle',
})
const run = (state: PayoutState, c: Context, ...events: PayoutEvent[]) => events.reduce((s, e) => transition(s, e, c), state)

/** Whether the payout reached its beneficiary with a wallet other than the one its buyer verified. */
const fundedByAnother = (s: PayoutState) => s.tag === 'beneficiary' && !same(s.funder?.sender, s.buyer.wallet)

describe('the wallet that funds the payout is the buyer’s verified one', () => {
  it('a known buyer (this device’s, or a signed accountId) connecting another wallet does not go on under the known account', () => {
    const known = { accountId: 'acc_1', walletId: 'w_1', wallet: VERIFIED }
    const s = run(
      quoted(known),
      ctx,
      { type: 'CONFIRM', now: NOW },
      ...choose(wallet),
      toFunding({ type: 'WALLET', event: { type: 'CONNECTED', account: OTHER } }),
    )
    expect(fundedByAnother(s)).toBe(false)
  })

  it('under a link signed for a wallet, connecting another one does not verify the signed one and fund from the other', () => {
    const signed = { ...ctx, linkWallet: VERIFIED }
    const identity = run(
      quoted(),
      signed,
      { type: 'CONFIRM', now: NOW },
      ...choose(wallet),
      toFunding({ type: 'WALLET', event: { type: 'CONNECTED', account: OTHER } }),
    )
    // The identity steps verify the signed wallet, while the connected one stays the funder.
    if (identity.tag !== 'identity') return expect(identity.tag).not.toBe('beneficiary')
    const onboarded = transition(
      { ...identity, tag: 'details', work: 'submitting' } as PayoutState,
      toIdentity({ type: 'ONBOARDED', accountId: 'acc_9', walletId: 'w_9', kycStatus: 'approved' }),
      signed,
    )
    expect(fundedByAnother(onboarded)).toBe(false)
  })

  it('held: an unknown buyer without a signed wallet verifies the wallet it connected', () => {
    const identity = run(
      quoted(),
      ctx,
      { type: 'CONFIRM', now: NOW },
      ...choose(wallet),
      toFunding({ type: 'WALLET', event: { type: 'CONNECTED', account: OTHER } }),
    )
    expect(identity).toMatchObject({ tag: 'identity', form: { wallet: OTHER } })
  })
})
