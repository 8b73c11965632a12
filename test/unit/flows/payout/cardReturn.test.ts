// Review of issue 31 (card payout): the way back from the card page (`cardSession=<id>&result=ok`)
// is matched against the payout this tab kept before leaving (cardPayout-pending), then the payout
// is created. Held here: the machine's own rules elsewhere, "a stored payout is resumed only for
// the buyer it belongs to" (ownedBy, with a link signed for a wallet) and "the quote expires into
// a new price, never into a payout".
import '../../setup/afterFirstScreen'
import { afterEach, describe, expect, it } from 'vitest'
import type { CardPayoutQuote } from '../../../../src/api/cardPayout'
import type { PartnerHttp } from '../../../../src/api/partnerHttp'
import { parseOptions } from '../../../../src/config/config'
import { cardCalls } from '../../../../src/flows/payout/card'
import { createPayoutEffects } from '../../../../src/flows/payout/effects'
import { type Context, type Pending, type PayoutEvent, type PayoutState, emptyDraft, initialState, transition } from '../../../../src/flows/payout/machine'
import { payoutStore, pendingStore, referenceStore, spentAddresses } from '../../../../src/flows/payout/persisted'
import { emptyApplicant, initialIdentity } from '../../../../src/identity/machine'
import { createFakeClock, settle } from '../../helpers/fakeClock'
import { memoryStorage } from '../../helpers/memoryStorage'
import { scopedStorage } from '../../../../src/storage/safeStorage'

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const WALLET_A = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const WALLET_B = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const DEPOSIT = '0x1111111111111111111111111111111111111111'
const NOW = Date.parse('2026-11-24T10:00:00Z')
const source = { chainId: 8453, token: TOKEN, symbol: 'USDC', decimals: 6 }
const config = (() => {
  const parsed = parseOptions({ apiBase: 'http://127.0.0.1:8787', partnerBase: 'http://127.0.0.1:8787/partner', chains: [{ id: 8453, name: 'Base', rpcUrl: 'http://127.0.0.1:8545' }], sources: [source] })
  if (!parsed.ok) throw new Error(parsed.problem)
  return parsed.config
})()
const ctx: Context = { destination: 'card', source, decimalMark: '.', emptyForm: () => ({ kind: 'fiat', amount: '', currency: 'EUR', country: '', rail: '' }) }
const quote = (expiresAt: number): CardPayoutQuote => ({ quoteId: 'cq_1', cryptoAmount: '21.5', fiatAmount: '20.00', rate: '0.93', providerFee: '0.30', ourFee: '0', expiresAt: new Date(expiresAt).toISOString() })
const buyerA = { accountId: 'acc_A', walletId: 'w_A', wallet: WALLET_A }
const buyerB = { accountId: 'acc_B', walletId: 'w_B', wallet: WALLET_B }
const identity = initialIdentity({ ...emptyApplicant, wallet: '' })

/** What openCard kept in this tab before the card page, for buyer A. */
const pendingOf = (expiresAt = NOW + 600_000): Pending => ({
  form: { kind: 'fiat', amount: '20', currency: 'EUR', country: '', rail: '' },
  draft: emptyDraft(),
  ask: { kind: 'fiat', amount: '20', currency: 'EUR', country: '' },
  funder: { sender: WALLET_A },
  quoted: { quote: quote(expiresAt), quotedAt: NOW - 60_000 },
  buyer: buyerA,
  cardSession: 'cs_1',
})

describe('back from the card page: whose payout', () => {
  it('a link signed for another wallet does not create the payout kept for buyer A', () => {
    // Buyer A left for the card page; this tab now opens a link the partner signed for wallet B
    // (identityStart gives no stored buyer then: knownBuyer refuses A's account for that link).
    const start = initialState({ identity, pending: pendingOf(), cardReturn: { session: 'cs_1', result: 'ok', at: NOW } }, { ...ctx, linkWallet: WALLET_B })
    expect(start.tag === 'card' && start.buyer.accountId).not.toBe('acc_A')
  })

  it('a link signed for buyer B (accountId, walletId, walletAddress) does not create the payout kept for buyer A', () => {
    const start = initialState({ buyer: buyerB, identity, pending: pendingOf(), cardReturn: { session: 'cs_1', result: 'ok', at: NOW } }, { ...ctx, linkWallet: WALLET_B })
    expect(start.tag === 'card' && start.buyer.accountId).not.toBe('acc_A')
  })

  it('held: a way back naming another session creates nothing', () => {
    const start = initialState({ buyer: buyerA, identity, pending: pendingOf(), cardReturn: { session: 'cs_forged', result: 'ok', at: NOW } }, ctx)
    expect(start).toMatchObject({ tag: 'card', work: 'idle' })
  })
})

type Calls = Array<{ path: string; body: Record<string, unknown> }>
function fakePartner(): PartnerHttp & { calls: Calls } {
  const calls: Calls = []
  const post = async (path: string, body: unknown) => {
    calls.push({ path, body: body as Record<string, unknown> })
    if (path === '/card/payout') return { id: 'cp_1', depositAddress: DEPOSIT, depositAmount: '21.5', chain: 8453, status: 'pending', expiresAt: new Date(NOW + 3_600_000).toISOString(), card: { brand: 'visa', last4: '4242' } } as never
    if (path === '/card/payout/quote') return quote(NOW + 600_000) as never
    throw new Error(`no answer for ${path}`)
  }
  return { calls, get: (path) => post(path, {}), post: (path, body) => post(path, body) }
}

let disposers: Array<() => void> = []
afterEach(() => {
  for (const d of disposers) d()
  disposers = []
})

function drive(initial: PayoutState, partner: PartnerHttp, now: number) {
  const storage = memoryStorage()
  let state = initial
  const effects = createPayoutEffects(
    {
      config,
      partner,
      source,
      store: payoutStore(storage, () => now, 'cardPayout'),
      references: referenceStore(storage, () => now, 'cardPayout'),
      spent: spentAddresses(storage),
      pending: pendingStore(undefined, 'cardPayout'),
      calls: cardCalls,
      clock: createFakeClock(now),
      identity: { api: {} as never, accounts: { load: () => undefined, save: () => {}, clear: () => {}, forget: () => {} }, usedCodes: { add: () => {} } as never },
      loadChainActions: async () => ({}) as never,
      discover: () => () => {},
      providerOf: () => undefined,
      newReference: () => 'po_1',
    },
    (event: PayoutEvent) => {
      const next = transition(state, event, ctx)
      if (next === state) return
      state = next
      effects.run(state)
    },
  )
  disposers.push(() => effects.dispose())
  effects.run(state)
  return { state: () => state }
}

describe('back from the card page: the price kept', () => {
  it('an expired price is asked again, never sent to create the payout', async () => {
    // The buyer spent longer on the card page than the card quote lasts.
    const expiredAt = NOW - 1_000
    const partner = fakePartner()
    const start = initialState({ buyer: buyerA, identity, pending: pendingOf(expiredAt), cardReturn: { session: 'cs_1', result: 'ok', at: NOW } }, ctx)
    drive(start, partner, NOW)
    await settle(10)
    const creations = partner.calls.filter((c) => c.path === '/card/payout')
    expect(creations.map((c) => c.body.quoteId)).not.toContain('cq_1')
  })

  it('held: a price still valid creates the payout once, with the session that came back', async () => {
    const partner = fakePartner()
    const start = initialState({ buyer: buyerA, identity, pending: pendingOf(), cardReturn: { session: 'cs_1', result: 'ok', at: NOW } }, ctx)
    const run = drive(start, partner, NOW)
    await settle(10)
    expect(partner.calls.filter((c) => c.path === '/card/payout').map((c) => c.body)).toEqual([{ quoteId: 'cq_1', accountId: 'acc_A', cardSession: 'cs_1', reference: 'po_1' }])
    expect(run.state()).toMatchObject({ tag: 'funding', record: { id: 'cp_1', card: { last4: '4242' } } })
  })
})

describe('whose pending record', () => {
  it("held: on the widget's origin another partner's (or another service's) tab record is not read, nor the other payout's", () => {
    const tab = memoryStorage()
    const acme = (apiBase = 'https://api.example') => scopedStorage(tab, { partner: 'acme', apiBase })
    pendingStore(acme(), 'cardPayout').put(pendingOf())
    expect(pendingStore(scopedStorage(tab, { partner: 'evil', apiBase: 'https://api.example' }), 'cardPayout').take()).toBeUndefined()
    expect(pendingStore(acme('https://other.example'), 'cardPayout').take()).toBeUndefined()
    expect(pendingStore(acme(), 'payout').take()).toBeUndefined()
    expect(pendingStore(acme(), 'cardPayout').take()).toMatchObject({ cardSession: 'cs_1', buyer: { accountId: 'acc_A' } })
  })
})
