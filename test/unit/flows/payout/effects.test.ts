// The payout's effects with a fake clock, a fake partner backend and a fake wallet/chain: the
// reference kept across a lost answer, one send per payout, the checks before the prompt, expiry.
// As a page runs once its first screen is up: the stored-record checks and the answers' schemas are here.
import '../../setup/afterFirstScreen'
import { describe, expect, it, vi } from 'vitest'
import type { PartnerHttp } from '../../../../src/api/partnerHttp'
import { FieldRejected, PartnerUnreachableError } from '../../../../src/errors/ApiError'
import { emptyDraft } from '../../../../src/flows/payout/base'
import type { ChainActions } from '../../../../src/flows/payout/effects'
import { payoutEvents } from '../../../../src/flows/payout/hostEvents'
import type { PayoutState } from '../../../../src/flows/payout/machine'
import { enPayout } from '../../../../src/i18n/en-payout'
import { addEnglish } from '../../../../src/i18n/i18n'
import { settle, until } from '../../helpers/fakeClock'
import { spentAddresses } from '../../../../src/flows/payout/persisted'
import { memoryStorage } from '../../helpers/memoryStorage'
import {
  connectWallet,
  BUYER,
  DEPOSIT,
  type FakeWallet,
  HASH,
  NOW,
  TOKEN,
  bankQuote,
  buyer,
  config,
  createdPayout,
  ctx,
  drive as drivePayout,
  fakePartner,
  fakeWallet as aWallet,
  payoutConfig,
  recordOf,
  sepaValues,
  toDestination,
  toFunding,
  wallet,
} from '../../helpers/payout'

const quote = bankQuote({ expiresAt: new Date(NOW + 600_000).toISOString() })
const created = createdPayout(quote.expiresAt)
const record = recordOf({ expiresAt: quote.expiresAt })

/** A wallet on these chains in turn that never switches, holding `balance`. */
const fakeWallet = (chainIds: number[] = [8453], balance = 100_000_000n) => aWallet({ chainIds, balance, ensureChain: false })

function drive(initial: PayoutState, partner: PartnerHttp, w: FakeWallet = fakeWallet(), storage = memoryStorage(), cfg = config) {
  return drivePayout(initial, { partner, wallet: w, storage, config: cfg, wallets: [wallet] })
}

const beneficiaryState = (): PayoutState => ({
  tag: 'beneficiary',
  buyer,
  form: ctx.emptyForm(),
  draft: {
    ...emptyDraft(),
    schema: 'bank_sepa',
    values: {
      name: 'Ada Lovelace',
      accountType: 'individual',
      firstName: 'Ada',
      lastName: 'Lovelace',
      IBAN: 'DE89 3704 0044 0532 0130 00',
      extra: 'never sent',
    },
  },
  ask: { kind: 'fiat', amount: '20', currency: 'EUR', country: 'DE' },
  quote,
  quotedAt: NOW,
  problems: {},
  work: 'idle',
})
const fundingState = (): PayoutState => ({ tag: 'funding', buyer, record, work: 'idle', connection: { tag: 'discovering' } })

/** Chooses the wallet, waits for it to connect, confirms, and waits for the send to end. */
async function connectAndSend(d: ReturnType<typeof drive>) {
  await connectWallet(d)
  d.dispatch(toFunding({ type: 'CONFIRM', now: NOW }))
  await until(() => d.state().tag !== 'funding' || (d.state() as { work?: string }).work === 'idle', 'the send')
  await settle()
}

describe('payout effects: a quote for what the buyer did not ask', () => {
  addEnglish(enPayout)
  const quoting = (kind: 'crypto' | 'fiat', amount: string): PayoutState => ({
    tag: 'quoting',
    buyer,
    form: { kind, amount, currency: 'EUR', country: 'DE', rail: '' },
    draft: emptyDraft(),
    ask: { kind, amount, currency: 'EUR', country: 'DE' },
    requote: false,
  })
  it.each([
    // The buyer asks to send 100; the quote would have the wallet send 1000.
    ['crypto', '100', { cryptoAmount: '1000', fiatAmount: '915.00' }, 'payout_ask.crypto'],
    // One base unit more is another amount too, and so is more precision than the token has.
    ['crypto', '100', { cryptoAmount: '100.000001', fiatAmount: '91.50' }, 'payout_ask.crypto'],
    ['crypto', '100', { cryptoAmount: '100.0000001', fiatAmount: '91.50' }, 'payout_ask.crypto'],
    // The buyer asks that 20 EUR arrive; the quote pays in less.
    ['fiat', '20', { cryptoAmount: '22.282609', fiatAmount: '19.99' }, 'payout_ask.fiat'],
  ] as const)(
    'a %s ask of %s answered with %o is refused before anything is created: the buyer reads it, the host hears %s',
    async (kind, amount, answer, code) => {
      const partner = fakePartner({ '/bank/payout/quote': [{ ...quote, ...answer }], '/limits': [{ limits: [] }] })
      const start = quoting(kind, amount)
      const d = drive(start, partner)
      await until(() => d.state().tag !== 'quoting', 'the answer')
      expect(d.state()).toMatchObject({ tag: 'form', form: { amount }, error: { kind: 'ask', rule: code.slice(7) } })
      const error = payoutEvents(start, d.state(), config).find((e) => e.name === 'error')
      expect(error?.payload).toMatchObject({ flow: 'payout', code, message: expect.stringMatching(/Nothing was sent/) })
      expect(partner.calls.filter((c) => c.path === '/bank/payout')).toHaveLength(0)
    },
  )
  it.each([
    ['crypto', '100', { cryptoAmount: '100.000000', fiatAmount: '91.50' }],
    ['fiat', '20', { cryptoAmount: '22.282609', fiatAmount: '20.00' }],
    ['fiat', '20', { cryptoAmount: '22.282609', fiatAmount: '20.01' }],
  ] as const)('a %s ask of %s answered with %o is the quote shown', async (kind, amount, answer) => {
    const d = drive(quoting(kind, amount), fakePartner({ '/bank/payout/quote': [{ ...quote, ...answer }], '/limits': [{ limits: [] }] }))
    await until(() => d.state().tag !== 'quoting', 'the answer')
    expect(d.state()).toMatchObject({ tag: 'quote', quote: answer })
  })
})

describe('payout effects: creating', () => {
  it('a lost answer is retried by the buyer with the reference stored before the first attempt: one payout', async () => {
    const partner = fakePartner({ '/bank/payout': [new PartnerUnreachableError(new TypeError('fetch failed')), created], '/limits': [{ limits: [] }] })
    const d = drive(beneficiaryState(), partner)
    d.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
    await until(() => d.state().tag === 'beneficiary' && (d.state() as { work?: string }).work === 'idle', 'the failure')
    expect(d.state()).toMatchObject({ problem: { key: 'error.partnerUnreachable' }, draft: { values: { IBAN: 'DE89 3704 0044 0532 0130 00' } } })
    d.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
    await until(() => d.state().tag === 'funding', 'funding')
    const creates = partner.calls.filter((c) => c.path === '/bank/payout')
    expect(creates).toHaveLength(2)
    expect(creates[0].body.reference).toBe('po_1')
    expect(creates[1].body.reference).toBe('po_1')
    // Only the schema's fields, normalised.
    expect(creates[0].body.beneficiary).toEqual({ schema: 'bank_sepa', ...sepaValues('DE89370400440532013000') })
    expect(creates[0].body).toMatchObject({ quoteId: 'bq_1', accountId: 'acc_1' })
    // Kept before the wallet is ever asked: a reload funds this payout, not a new one.
    expect(d.store.load()).toMatchObject({ id: 'bp_1', depositAddress: DEPOSIT })
  })

  it('a beneficiary field the service refused is marked on that field, the service’s words above it, the form kept and nothing stored', async () => {
    const partner = fakePartner({ '/bank/payout': [new FieldRejected(400, 'invalid_request', 'beneficiary.IBAN: not a valid IBAN')] })
    const d = drive(beneficiaryState(), partner)
    d.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
    await until(() => (d.state() as { work?: string }).work === 'idle', 'the refusal')
    expect(d.state()).toMatchObject({
      tag: 'beneficiary',
      problem: { code: 'invalid_request' },
      problems: { IBAN: { kind: 'refused' } },
      draft: { values: { IBAN: 'DE89 3704 0044 0532 0130 00', firstName: 'Ada' } },
    })
    expect(Object.keys((d.state() as { problems: object }).problems)).toEqual(['IBAN'])
    expect(d.store.load()).toBeUndefined()
  })

  it('an EVM address whose capitals do not match its EIP-55 checksum is marked on its field, nothing sent; one case is sent checksummed', async () => {
    const partner = fakePartner({ '/bank/payout': [created] })
    const atEvm = (address: string): PayoutState =>
      ({ ...beneficiaryState(), draft: { ...emptyDraft(), schema: 'evm', values: { name: 'Ada', address } } }) as PayoutState
    const d = drive(atEvm('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD'), partner)
    d.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
    await until(() => (d.state() as { work?: string }).work === 'idle', 'the check')
    expect(d.state()).toMatchObject({ tag: 'beneficiary', problems: { address: { kind: 'evmChecksum' } }, problem: undefined })
    expect(partner.calls.filter((c) => c.path === '/bank/payout')).toEqual([])
    const ok = drive(atEvm('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'), partner)
    ok.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
    await until(() => ok.state().tag === 'funding', 'funding')
    expect(partner.calls.find((c) => c.path === '/bank/payout')?.body.beneficiary).toEqual({
      name: 'Ada',
      schema: 'evm',
      address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    })
  })

  it.each([
    ['on another chain', { chain: 42161 }, 'payout_chain'],
    ['asking for another amount', { depositAmount: '222.82609' }, 'payout_quote.amount'],
  ])('a payout that does not match the quote (%s) is refused with its own code (%s): never funded', async (_name, mismatch, code) => {
    const partner = fakePartner({ '/bank/payout': [{ ...created, ...mismatch }] })
    const d = drive(beneficiaryState(), partner)
    d.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
    await until(() => (d.state() as { work?: string }).work === 'idle', 'the refusal')
    expect(d.state()).toMatchObject({ tag: 'beneficiary', problem: { key: 'payout.problem.mismatch', code } })
    expect(d.store.load()).toBeUndefined()
  })

  it('quote_expired from the service: priced again, never resent', async () => {
    const { QuoteExpired } = await import('../../../../src/errors/ApiError')
    const partner = fakePartner({ '/bank/payout': [new QuoteExpired(409, 'quote_expired', 'expired')], '/bank/payout/quote': [{ ...quote, quoteId: 'bq_2' }] })
    const d = drive(beneficiaryState(), partner)
    d.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
    await until(() => d.state().tag === 'quote', 'the new quote')
    expect(d.state()).toMatchObject({ tag: 'quote', refreshed: true, quote: { quoteId: 'bq_2' } })
    expect(partner.calls.filter((c) => c.path === '/bank/payout')).toHaveLength(1)
  })

  it('the quote running out on the fake clock re-quotes while the buyer types', async () => {
    const partner = fakePartner({ '/bank/payout/quote': [{ ...quote, quoteId: 'bq_2', expiresAt: new Date(NOW + 1_200_000).toISOString() }] })
    const d = drive(beneficiaryState(), partner)
    await d.clock.advance(600_000)
    await until(() => d.state().tag === 'quote', 'the new quote')
    const asked = partner.calls.find((c) => c.path === '/bank/payout/quote')!.body
    expect(asked).toEqual({ cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', country: 'DE', fiatAmount: '20' })
  })
})

describe('payout effects: funding', () => {
  it('one plain transfer, persisted with its hash and the address spent, then followed', async () => {
    const partner = fakePartner({ '/bank/payout/status': [{ id: 'bp_1', status: 'pending' }] })
    const d = drive(fundingState(), partner)
    await connectAndSend(d)
    expect(d.sent).toEqual([{ to: TOKEN, data: `0xa9059cbb${'0'.repeat(24)}${DEPOSIT.slice(2)}${(22_282_609).toString(16).padStart(64, '0')}`, value: 0n }])
    expect(d.state()).toMatchObject({ tag: 'tracking', record: { txHash: HASH, sender: BUYER } })
    expect(d.store.load()).toMatchObject({ txHash: HASH })
    expect(d.spent.has(DEPOSIT)).toBe(true)
  })

  it('an address already sent to from this browser is refused: no prompt, its status instead', async () => {
    const partner = fakePartner({ '/bank/payout/status': [{ id: 'bp_1', status: 'pending' }] })
    const storage = memoryStorage()
    spentAddresses(storage).add(DEPOSIT)
    const d = drive(fundingState(), partner, fakeWallet(), storage)
    await connectAndSend(d)
    expect(d.sent).toHaveLength(0)
    expect(d.state()).toMatchObject({ tag: 'tracking', alreadyFunded: true })
  })

  it('no wallet connected: a transfer made another way (the address copied elsewhere) is seen one interval in and followed, nothing sent', async () => {
    const partner = fakePartner({ '/bank/payout/status': [{ id: 'bp_1', status: 'converting', depositTxHash: HASH }] })
    const d = drive(fundingState(), partner)
    await settle()
    // Not at once: the creation just said pending.
    expect(partner.calls.filter((c) => c.path === '/bank/payout/status')).toHaveLength(0)
    await d.clock.advance(60_000)
    // The status poll (query-core, fetched on first use) runs on the page's own timers.
    await vi.waitFor(() => expect(d.state()).toMatchObject({ tag: 'tracking', alreadyFunded: true }), { timeout: 3_000 })
    expect(d.sent).toHaveLength(0)
  })

  it('a wallet connected, nothing asked of it: a transfer made another way (an exchange) is still seen and followed, nothing sent', async () => {
    const partner = fakePartner({ '/bank/payout/status': [{ id: 'bp_1', status: 'converting', depositTxHash: HASH }] })
    const d = drive(fundingState(), partner)
    await connectWallet(d)
    await d.clock.advance(60_000)
    await vi.waitFor(() => expect(d.state()).toMatchObject({ tag: 'tracking', alreadyFunded: true }), { timeout: 3_000 })
    expect(d.sent).toHaveLength(0)
  })

  it('an address the service already saw money at is refused before the prompt', async () => {
    const partner = fakePartner({ '/bank/payout/status': [{ id: 'bp_1', status: 'converting', depositTxHash: HASH }] })
    const d = drive(fundingState(), partner)
    await connectAndSend(d)
    expect(d.sent).toHaveLength(0)
    expect(d.state()).toMatchObject({ tag: 'tracking', alreadyFunded: true })
  })

  it('a wallet on another chain that does not switch is blocked before the prompt', async () => {
    const partner = fakePartner({ '/bank/payout/status': [{ id: 'bp_1', status: 'pending' }] })
    const d = drive(fundingState(), partner, fakeWallet([42161]))
    await connectAndSend(d)
    expect(d.sent).toHaveLength(0)
    expect(d.state()).toMatchObject({ tag: 'funding', work: 'idle', problem: { kind: 'wrongChain' } })
  })

  it('a chain switched away right before sending is caught by the second check', async () => {
    const partner = fakePartner({ '/bank/payout/status': [{ id: 'bp_1', status: 'pending' }] })
    const d = drive(fundingState(), partner, fakeWallet([8453, 42161]))
    await connectAndSend(d)
    expect(d.sent).toHaveLength(0)
    expect(d.state()).toMatchObject({ problem: { kind: 'wrongChain' } })
  })

  it('a balance short of depositAmount is said, nothing sent', async () => {
    const partner = fakePartner({ '/bank/payout/status': [{ id: 'bp_1', status: 'pending' }] })
    const d = drive(fundingState(), partner, fakeWallet([8453], 1_000_000n))
    await connectAndSend(d)
    expect(d.sent).toHaveLength(0)
    expect(d.state()).toMatchObject({ problem: { kind: 'insufficient', balance: '1' } })
  })

  it('a status check that fails is not a wallet problem, and nothing is sent or retried on its own', async () => {
    const partner = fakePartner({ '/bank/payout/status': [new PartnerUnreachableError(new TypeError('x'))] })
    const d = drive(fundingState(), partner)
    await connectAndSend(d)
    expect(d.sent).toHaveLength(0)
    expect(d.state()).toMatchObject({ problem: { kind: 'check', problem: { key: 'error.partnerUnreachable' } } })
    await d.clock.advance(60_000)
    expect(partner.calls.filter((c) => c.path === '/bank/payout/status')).toHaveLength(1)
  })

  it('the wallet refusing the transfer: nothing persisted as sent, the buyer may send again', async () => {
    const partner = fakePartner({ '/bank/payout/status': [{ id: 'bp_1', status: 'pending' }] })
    const w = fakeWallet()
    w.actions.send = async () => {
      throw Object.assign(new Error('User rejected'), { code: 4001 })
    }
    const d = drive(fundingState(), partner, w)
    await connectAndSend(d)
    expect(d.state()).toMatchObject({ tag: 'funding', work: 'idle', problem: { kind: 'wallet', problem: 'rejected' } })
    expect(d.store.load()?.txHash).toBeUndefined()
    expect(d.spent.has(DEPOSIT)).toBe(false)
  })
})

describe('payout effects: one payout, two devices', () => {
  /** One chain both devices read: the buyer's wallet holds plenty, the payout's address what was sent to it. */
  function sharedChain() {
    const held = new Map<string, bigint>()
    const sent: unknown[] = []
    const actions: ChainActions = {
      ...fakeWallet().actions,
      tokenBalance: async (_client, _token, owner) => (owner.toLowerCase() === BUYER.toLowerCase() ? 100_000_000n : (held.get(owner.toLowerCase()) ?? 0n)),
      send: async (_p, _c, _a, tx) => {
        sent.push(tx)
        const to = `0x${tx.data.slice(34, 74)}`
        held.set(to, (held.get(to) ?? 0n) + BigInt(`0x${tx.data.slice(74)}`))
        return HASH
      },
    }
    return { actions, sent }
  }

  it('a second device opening the same signed reference while the service still says pending never prompts: it reads the address and follows', async () => {
    const signed = payoutConfig({ reference: 'order-42' })
    // The service hands the same payout back for the same reference, and has not seen the transfer yet.
    const partner = fakePartner({ '/bank/payout': [created], '/bank/payout/status': [{ id: 'bp_1', status: 'pending' }] })
    const chain = sharedChain()
    const first = drive(beneficiaryState(), partner, chain, memoryStorage(), signed)
    first.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
    await until(() => first.state().tag === 'funding', 'the first device at funding')
    await connectAndSend(first)
    expect(first.state()).toMatchObject({ tag: 'tracking', record: { txHash: HASH } })
    expect(chain.sent).toHaveLength(1)

    // Another device (its own storage: no record, no spent address, no claim) opens the same link.
    const second = drive(beneficiaryState(), partner, chain, memoryStorage(), signed)
    second.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
    await until(() => second.state().tag === 'funding', 'the second device at funding')
    expect(partner.calls.filter((c) => c.path === '/bank/payout').map((c) => c.body.reference)).toEqual(['order-42', 'order-42'])
    await connectAndSend(second)
    expect(chain.sent).toHaveLength(1)
    expect(second.state()).toMatchObject({ tag: 'tracking', alreadyFunded: true, record: { id: 'bp_1' } })
    expect(second.store.load()?.promptedAt).toBeUndefined()
  })
})
