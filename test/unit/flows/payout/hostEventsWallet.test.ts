// Second review of issue 31: what the embedding hears when another wallet than the verified one is
// connected (machine.ts otherWallet). docs/partner-kit.md: "The events carry no wallet: use the
// walletAddress you signed into the link the buyer verified under, or the one on your records".
// The buyer's screen names the wallet to connect; the `error` event repeats the screen's words, so
// it hands the host page (and any script on it) the verified wallet of the buyer this device keeps,
// to whoever connects another wallet (a shared device, the widget's own origin in iframe mode).
import { describe, expect, it } from 'vitest'
import { emptyDraft } from '../../../../src/flows/payout/base'
import { payoutEvents } from '../../../../src/flows/payout/hostEvents'
import { type PayoutState, transition } from '../../../../src/flows/payout/machine'
import { enPayout } from '../../../../src/i18n/en-payout'
import { addEnglish } from '../../../../src/i18n/i18n'
import { BUYER as VERIFIED, NOW, OTHER, bankQuote, otherWallet as wallet, buyer, config, ctx, recordOf, toFunding } from '../../helpers/payout'

addEnglish(enPayout)

const quote = bankQuote()
const record = recordOf({ depositAmount: quote.cryptoAmount, expiresAt: quote.expiresAt, settlement: undefined })

/** Every string in every event payload, lower-cased. */
const said = (prev: PayoutState, next: PayoutState) => JSON.stringify(payoutEvents(prev, next, config).map((e) => e.payload)).toLowerCase()

describe('the host hears no wallet when another one is connected', () => {
  it('at the connect step (a known buyer connects another wallet)', () => {
    const connecting = transition(
      {
        tag: 'connect',
        buyer,
        form: ctx.emptyForm(),
        draft: emptyDraft(),
        ask: { kind: 'fiat', amount: '20', currency: 'EUR', country: 'DE' },
        quote,
        quotedAt: NOW,
        connection: { tag: 'wallets', wallets: [wallet] },
        work: 'idle',
      },
      toFunding({ type: 'WALLET', event: { type: 'CHOOSE', wallet } }),
      ctx,
    )
    const refused = transition(connecting, toFunding({ type: 'WALLET', event: { type: 'CONNECTED', account: OTHER } }), ctx)
    expect(refused).toMatchObject({ tag: 'connect', problem: { kind: 'check' } })
    expect(said(connecting, refused)).not.toContain(VERIFIED.toLowerCase())
  })

  it('at funding (a resumed payout, another wallet connected)', () => {
    const connecting = transition(
      { tag: 'funding', buyer, record, work: 'idle', connection: { tag: 'wallets', wallets: [wallet] } },
      toFunding({ type: 'WALLET', event: { type: 'CHOOSE', wallet } }),
      ctx,
    )
    const refused = transition(connecting, toFunding({ type: 'WALLET', event: { type: 'CONNECTED', account: OTHER } }), ctx)
    expect(refused).toMatchObject({ tag: 'funding', problem: { kind: 'check' } })
    expect(said(connecting, refused)).not.toContain(VERIFIED.toLowerCase())
  })
})
