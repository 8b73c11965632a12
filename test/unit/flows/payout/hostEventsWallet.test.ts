// Second review of issue 31: what the embedding hears when another wallet than the verified one is
// connected (machine.ts otherWallet). docs/partner-kit.md: "The events carry no wallet: use the
// walletAddress you signed into the link the buyer verified under, or the one on your records".
// The buyer's screen names the wallet to connect; the `error` event repeats the screen's words, so
// it hands the host page (and any script on it) the verified wallet of the buyer this device keeps,
// to whoever connects another wallet (a shared device, the widget's own origin in iframe mode).
import { describe, expect, it } from 'vitest'
import type { PayoutQuote } from '../../../../src/api/payout'
import { parseOptions } from '../../../../src/config/config'
import { payoutEvents } from '../../../../src/flows/payout/hostEvents'
import { type Context, type PayoutRecord, type PayoutState, emptyDraft, transition } from '../../../../src/flows/payout/machine'
import { enPayout } from '../../../../src/i18n/en-payout'
import { addEnglish } from '../../../../src/i18n/i18n'

addEnglish(enPayout)

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const VERIFIED = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const OTHER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const NOW = Date.parse('2026-11-24T10:00:00Z')
const source = { chainId: 8453, token: TOKEN, symbol: 'USDC', decimals: 6 }
const config = (() => {
  const parsed = parseOptions({ apiBase: 'http://127.0.0.1:8787', partnerBase: 'http://127.0.0.1:8787/partner', chains: [{ id: 8453, name: 'Base', rpcUrl: 'http://127.0.0.1:8545' }], sources: [source] })
  if (!parsed.ok) throw new Error(parsed.problem)
  return parsed.config
})()
const ctx: Context = { destination: 'bank', source, decimalMark: '.', emptyForm: () => ({ kind: 'fiat', amount: '', currency: 'EUR', country: '', rail: '' }) }
const quote: PayoutQuote = { quoteId: 'bq_1', cryptoAmount: '22.282609', fiatAmount: '20.00', rate: '0.92', rail: 'sepa_instant', estimatedSettlement: 'instant', providerFee: '0.25', ourFee: '0.10', expiresAt: new Date(NOW + 3_600_000).toISOString() }
const buyer = { accountId: 'acc_1', walletId: 'w_1', wallet: VERIFIED }
const wallet = { id: 'w|other', name: 'Other', rdns: 'other' }
const record: PayoutRecord = { id: 'bp_1', depositAddress: '0x1111111111111111111111111111111111111111', depositAmount: quote.cryptoAmount, chain: 8453, expiresAt: quote.expiresAt, token: TOKEN, symbol: 'USDC', decimals: 6, fiatAmount: '20.00', fiatCurrency: 'EUR', rail: 'sepa_instant', accountId: 'acc_1', wallet: VERIFIED, createdAt: NOW }

/** Every string in every event payload, lower-cased. */
const said = (prev: PayoutState, next: PayoutState) => JSON.stringify(payoutEvents(prev, next, config).map((e) => e.payload)).toLowerCase()

describe('the host hears no wallet when another one is connected', () => {
  it('at the connect step (a known buyer connects another wallet)', () => {
    const connecting = transition({ tag: 'connect', buyer, form: ctx.emptyForm(), draft: emptyDraft(), ask: { kind: 'fiat', amount: '20', currency: 'EUR', country: 'DE' }, quote, quotedAt: NOW, work: 'idle' }, { type: 'CONNECT', wallet }, ctx)
    const refused = transition(connecting, { type: 'CONNECTED', sender: OTHER }, ctx)
    expect(refused).toMatchObject({ tag: 'connect', problem: { kind: 'check' } })
    expect(said(connecting, refused)).not.toContain(VERIFIED.toLowerCase())
  })

  it('at funding (a resumed payout, another wallet connected)', () => {
    const connecting = transition({ tag: 'funding', buyer, record, work: 'idle' }, { type: 'CONNECT', wallet }, ctx)
    const refused = transition(connecting, { type: 'CONNECTED', sender: OTHER }, ctx)
    expect(refused).toMatchObject({ tag: 'funding', problem: { kind: 'check' } })
    expect(said(connecting, refused)).not.toContain(VERIFIED.toLowerCase())
  })
})
