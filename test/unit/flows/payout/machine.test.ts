import { describe, expect, it } from 'vitest'
import type { PayoutStatus } from '../../../../src/api/payout'
import type { LimitEntry } from '../../../../src/api/reference'
import { emptyDraft } from '../../../../src/flows/payout/base'
import { type PayoutEvent, type PayoutState, initialState, transition } from '../../../../src/flows/payout/machine'
import { emptyApplicant, initialIdentity } from '../../../../src/identity/machine'
import { NOW, OTHER as OTHER_WALLET, bankQuote, buyer, ctx, recordOf, run, toDestination, choose, toFunding, toIdentity, wallet } from '../../helpers/payout'

const quote = bankQuote({ expiresAt: new Date(NOW + 7_200_000).toISOString() })
const limits: LimitEntry[] = [
  { currency: 'EUR', rail: 'sepa_instant', direction: 'both', min: '1.00', max: '100000.00', settlement: 'instant' },
  { currency: 'EUR', rail: 'sepa', direction: 'payout', min: '1.00', max: null, settlement: 't+1' },
]
const record = recordOf({ expiresAt: quote.expiresAt })
const status = (s: PayoutStatus['status'], extra: Partial<PayoutStatus> = {}): PayoutStatus => ({ id: 'bp_1', status: s, ...extra })

const form = (): PayoutState => ({ tag: 'form', buyer, form: ctx.emptyForm(), draft: emptyDraft(), limits })
const filled = (amount = '20', kind: 'fiat' | 'crypto' = 'fiat') =>
  run(form(), { type: 'EDIT', kind }, { type: 'EDIT', amount }, { type: 'EDIT', country: 'DE' })
const quoted = () => run(filled(), { type: 'SUBMIT' }, { type: 'QUOTED', quote, at: NOW })
/** Price first: the quote, then the wallet that funds it, then (a known buyer) the beneficiary. */
const atBeneficiary = () =>
  run(quoted(), { type: 'CONFIRM', now: NOW }, ...choose(wallet), toFunding({ type: 'WALLET', event: { type: 'CONNECTED', account: buyer.wallet } }))
const sepa = (s: PayoutState) =>
  run(
    s,
    toDestination({ type: 'EDIT', values: { name: 'Ada Lovelace' } }),
    toDestination({ type: 'EDIT', values: { firstName: 'Ada' } }),
    toDestination({ type: 'EDIT', values: { lastName: 'Lovelace' } }),
    toDestination({ type: 'EDIT', values: { IBAN: 'DE89 3704 0044 0532 0130 00' } }),
  )
const funding = (): PayoutState => ({ tag: 'funding', buyer, record, work: 'idle', connection: { tag: 'discovering' } })
const connected = () => run(funding(), ...choose(wallet), toFunding({ type: 'WALLET', event: { type: 'CONNECTED', account: buyer.wallet } }))

describe('payout machine: where it starts', () => {
  const identity = initialIdentity(emptyApplicant)
  it('price first: a buyer the service does not know starts at the form, anonymous; the wallet, then the identity steps with it, then the beneficiary', () => {
    const start = initialState({ identity }, ctx)
    expect(start).toMatchObject({ tag: 'form', buyer: undefined })
    const priced = run(start, { type: 'EDIT', amount: '20' }, { type: 'EDIT', country: 'DE' }, { type: 'SUBMIT' }, { type: 'QUOTED', quote, at: NOW })
    expect(priced.tag).toBe('quote')
    const connecting = run(priced, { type: 'CONFIRM', now: NOW })
    expect(connecting.tag).toBe('connect')
    const verifying = run(connecting, ...choose(wallet), toFunding({ type: 'WALLET', event: { type: 'CONNECTED', account: buyer.wallet } }))
    // The wallet step is skipped: the identity steps verify the wallet just connected.
    expect(verifying).toMatchObject({
      tag: 'identity',
      form: { wallet: buyer.wallet },
      pending: { ask: { amount: '20', country: 'DE' }, funder: { sender: buyer.wallet } },
    })
    const details = run(verifying, toIdentity({ type: 'AUTH_CODE', code: 'c' }))
    const onboarded = run(
      run(
        details,
        ...['nationality', 'country'].map((field) => toIdentity({ type: 'EDIT', field: field as 'country', value: 'DE' })),
        toIdentity({ type: 'EDIT', field: 'phone', value: '+4915112345678' }),
        toIdentity({ type: 'EDIT', field: 'name', value: 'Ada Lovelace' }),
        toIdentity({ type: 'EDIT', field: 'email', value: 'ada@example.com' }),
        toIdentity({ type: 'SUBMIT' }),
      ),
      toIdentity({ type: 'ONBOARDED', accountId: 'acc_9', walletId: 'w_9', kycStatus: 'approved' }),
    )
    // The price this page still holds goes on to the beneficiary, with the new buyer and the wallet connected.
    expect(onboarded).toMatchObject({
      tag: 'beneficiary',
      buyer: { accountId: 'acc_9', walletId: 'w_9', wallet: buyer.wallet },
      quote: { quoteId: 'bq_1' },
      funder: { sender: buyer.wallet },
    })
  })
  it('back from the identity provider (a reload): the identity steps go on, and the price is asked again once verified', () => {
    const pending = {
      form: { kind: 'fiat' as const, amount: '20', currency: 'EUR', country: 'DE', rail: '' },
      draft: emptyDraft(),
      ask: { kind: 'fiat' as const, amount: '20.00', currency: 'EUR', country: 'DE' },
      funder: { sender: buyer.wallet },
    }
    const back = initialState({ identity: initialIdentity({ ...emptyApplicant, wallet: buyer.wallet }, 'code_1'), pending }, ctx)
    expect(back).toMatchObject({ tag: 'details', authCode: 'code_1', pending })
    const onboarded = transition(
      { ...(back as Extract<PayoutState, { tag: 'details' }>), work: 'submitting' },
      toIdentity({ type: 'ONBOARDED', accountId: 'acc_9', walletId: 'w_9', kycStatus: 'approved' }),
      ctx,
    )
    expect(onboarded).toMatchObject({ tag: 'quoting', requote: true, ask: pending.ask, buyer: { accountId: 'acc_9' }, funder: { sender: buyer.wallet } })
    // The new price, then straight on to the beneficiary (the buyer is known, the wallet connected before).
    expect(run(onboarded, { type: 'QUOTED', quote, at: NOW }, { type: 'CONFIRM', now: NOW }).tag).toBe('beneficiary')
  })
  it('back from the verification before it began: the price as it was', () => {
    const verifying = run(
      quoted(),
      { type: 'CONFIRM', now: NOW },
      ...choose(wallet),
      toFunding({ type: 'WALLET', event: { type: 'CONNECTED', account: buyer.wallet } }),
    )
    // A known buyer goes on to the beneficiary; without one (below) the identity steps come first.
    expect(verifying.tag).toBe('beneficiary')
    const anonymous = run(
      { tag: 'form', form: ctx.emptyForm(), draft: emptyDraft(), limits },
      { type: 'EDIT', amount: '20' },
      { type: 'EDIT', country: 'DE' },
      { type: 'SUBMIT' },
      { type: 'QUOTED', quote, at: NOW },
      { type: 'CONFIRM', now: NOW },
      ...choose(wallet),
      toFunding({ type: 'WALLET', event: { type: 'CONNECTED', account: buyer.wallet } }),
    )
    expect(anonymous.tag).toBe('identity')
    expect(run(anonymous, toIdentity({ type: 'BACK' }))).toMatchObject({ tag: 'quote', quote: { quoteId: 'bq_1' }, funder: { sender: buyer.wallet } })
  })
  it('a link signed for a wallet: only that wallet may fund and be verified; another one connected is refused in words', () => {
    const signed = { ...ctx, linkWallet: OTHER_WALLET }
    const priced = [
      { type: 'EDIT', amount: '20' },
      { type: 'EDIT', country: 'DE' },
      { type: 'SUBMIT' },
      { type: 'QUOTED', quote, at: NOW },
      { type: 'CONFIRM', now: NOW },
      ...choose(wallet),
    ] as PayoutEvent[]
    const connecting = priced.reduce((state, e) => transition(state, e, signed), initialState({ identity }, signed))
    expect(transition(connecting, toFunding({ type: 'WALLET', event: { type: 'CONNECTED', account: buyer.wallet } }), signed)).toMatchObject({
      tag: 'connect',
      work: 'idle',
      problem: { kind: 'check', problem: { key: 'payout.otherWallet', detail: OTHER_WALLET } },
    })
    expect(transition(connecting, toFunding({ type: 'WALLET', event: { type: 'CONNECTED', account: OTHER_WALLET.toLowerCase() } }), signed)).toMatchObject({
      tag: 'identity',
      form: { wallet: OTHER_WALLET },
    })
  })
  it('a known buyer starts at the form', () => {
    expect(initialState({ identity, buyer }, ctx).tag).toBe('form')
  })
  it('reload: a payout with its hash is followed, never funded again; one without resumes funding that same payout', () => {
    expect(initialState({ identity, buyer, record: { ...record, txHash: `0x${'a'.repeat(64)}` } }, ctx)).toMatchObject({
      tag: 'tracking',
      record: { id: 'bp_1' },
    })
    expect(initialState({ identity, buyer, record }, ctx)).toMatchObject({ tag: 'funding', record: { id: 'bp_1' }, work: 'idle' })
  })
  it('events of another stage do nothing in the identity steps: the form’s EDIT is not the identity steps’ own', () => {
    const start: PayoutState = identity
    expect(transition(start, { type: 'CONFIRM', now: NOW }, ctx)).toBe(start)
    const details: PayoutState = { tag: 'details', form: { ...emptyApplicant, wallet: buyer.wallet }, authCode: 'c', errors: {}, work: 'idle' }
    expect(transition(details, { type: 'EDIT', amount: '20' }, ctx)).toBe(details)
    // The identity steps' own EDIT (it names its field) still reaches them.
    expect(transition(start, toIdentity({ type: 'EDIT', field: 'wallet', value: buyer.wallet }), ctx)).toMatchObject({
      tag: 'wallet',
      form: { wallet: buyer.wallet },
    })
  })
  it('the identity steps’ EDIT does nothing at the form', () => {
    const s = form()
    expect(transition(s, toIdentity({ type: 'EDIT', field: 'country', value: 'FR' }), ctx)).toBe(s)
  })
  it('the beneficiary’s EDIT and SUBMIT reach neither the identity steps nor the form', () => {
    const details: PayoutState = { tag: 'details', form: { ...emptyApplicant, wallet: buyer.wallet }, authCode: 'c', errors: {}, work: 'idle' }
    expect(transition(details, toDestination({ type: 'EDIT', values: { name: 'Ada' } }), ctx)).toBe(details)
    expect(transition(details, toDestination({ type: 'SUBMIT', now: NOW }), ctx)).toBe(details)
    const s = filled()
    expect(transition(s, toDestination({ type: 'EDIT', values: { country: 'FR' }, purpose: 'rent' }), ctx)).toBe(s)
    expect(transition(s, toDestination({ type: 'SUBMIT', now: NOW }), ctx)).toBe(s)
  })
  it('the form’s and the identity steps’ EDIT and SUBMIT do nothing at the beneficiary', () => {
    const s = sepa(atBeneficiary())
    expect(transition(s, { type: 'EDIT', amount: '30' }, ctx)).toBe(s)
    expect(transition(s, toIdentity({ type: 'EDIT', field: 'name', value: 'Eve' }), ctx)).toBe(s)
    expect(transition(s, { type: 'SUBMIT' }, ctx)).toBe(s)
  })
})

describe('payout machine: the form', () => {
  it('an amount is checked before any request, in the buyer’s locale', () => {
    expect(run(filled('abc'), { type: 'SUBMIT' })).toMatchObject({ tag: 'form', error: { kind: 'amount', problem: 'format' } })
    expect(run(filled('1.234'), { type: 'SUBMIT' })).toMatchObject({ error: { kind: 'amount', problem: 'decimals' } })
    expect(run(filled('1.234567', 'crypto'), { type: 'SUBMIT' })).toMatchObject({ tag: 'quoting', ask: { kind: 'crypto', amount: '1.234567' } })
    const comma = transition(filled('20,5'), { type: 'SUBMIT' }, { ...ctx, decimalMark: ',' })
    expect(comma).toMatchObject({ tag: 'quoting', ask: { amount: '20.5' } })
  })
  it('the country is required', () => {
    const s = run(form(), { type: 'EDIT', amount: '20' }, { type: 'SUBMIT' })
    expect(s).toMatchObject({ tag: 'form', error: { kind: 'country' } })
  })
  it('a fiat amount outside every rail’s limits is refused before any request; a forced rail uses its own', () => {
    expect(run(filled('0.5'), { type: 'SUBMIT' })).toMatchObject({ tag: 'form', error: { kind: 'limits', check: { problem: 'below_min', limit: '1.00' } } })
    // Above SEPA Instant's ceiling, but plain SEPA has none: the service may pick it.
    expect(run(filled('200000'), { type: 'SUBMIT' }).tag).toBe('quoting')
    const forced = run(filled('200000'), { type: 'EDIT', rail: 'sepa_instant' }, { type: 'SUBMIT' })
    expect(forced).toMatchObject({ error: { kind: 'limits', check: { problem: 'above_max', rail: 'sepa_instant' } } })
  })
  it('one amount is asked for, never both; the rail only when forced', () => {
    const s = run(filled('20'), { type: 'SUBMIT' })
    expect(s).toMatchObject({ tag: 'quoting', ask: { kind: 'fiat', amount: '20', currency: 'EUR', country: 'DE' } })
    expect('rail' in (s as { ask: object }).ask).toBe(false)
  })
  it('another currency drops a forced rail', () => {
    const s = run(filled(), { type: 'EDIT', rail: 'sepa' }, { type: 'EDIT', currency: 'USD' })
    expect(s).toMatchObject({ form: { rail: '', currency: 'USD' } })
  })
  it('a quote whose arriving amount is outside its rail’s limits goes back to the form, said', () => {
    const s = run(filled('20', 'crypto'), { type: 'SUBMIT' }, { type: 'QUOTED', quote: { ...quote, fiatAmount: '0.50' }, at: NOW })
    expect(s).toMatchObject({ tag: 'form', error: { kind: 'limits', check: { problem: 'below_min' } } })
  })
  it('a failed quote keeps the form as typed', () => {
    const s = run(filled('20'), { type: 'SUBMIT' }, { type: 'QUOTE_FAILED', problem: { key: 'quote.noRoute', code: 'no_route' } })
    expect(s).toMatchObject({ tag: 'form', form: { amount: '20', country: 'DE' }, error: { kind: 'api' } })
  })
})

describe('payout machine: quote and expiry', () => {
  it('an expired quote is priced again while the buyer looks at it, marked as new', () => {
    const s = run(quoted(), { type: 'EXPIRED' })
    expect(s).toMatchObject({ tag: 'quoting', requote: true })
    expect(run(s, { type: 'QUOTED', quote: { ...quote, quoteId: 'bq_2' }, at: NOW })).toMatchObject({
      tag: 'quote',
      refreshed: true,
      quote: { quoteId: 'bq_2' },
    })
  })
  it('continuing on a quote past its expiry re-quotes instead', () => {
    expect(run(quoted(), { type: 'CONFIRM', now: Date.parse(quote.expiresAt) })).toMatchObject({ tag: 'quoting', requote: true })
  })
  it('a quote that came expired is never used: the buyer asks again', () => {
    const s = run(filled(), { type: 'SUBMIT' }, { type: 'QUOTED', quote, at: NOW, stale: 'expired' })
    expect(run(s, { type: 'CONFIRM', now: NOW }).tag).toBe('quoting')
    expect(run(s, { type: 'REQUOTE' }).tag).toBe('quoting')
  })
  it('the beneficiary step takes the schema of the quote’s currency, country and rail (beneficiary.ts: schemasFor)', () => {
    expect(atBeneficiary()).toMatchObject({ tag: 'beneficiary', draft: { schema: 'bank_sepa', values: { accountType: 'individual' } } })
  })
})

describe('payout machine: the beneficiary', () => {
  it('a typo is said on its field and never clears the form', () => {
    const s = run(
      sepa(atBeneficiary()),
      toDestination({ type: 'EDIT', values: { IBAN: 'DE89 3704 0044 0532 0130 01' } }),
      toDestination({ type: 'SUBMIT', now: NOW }),
    )
    expect(s).toMatchObject({
      tag: 'beneficiary',
      work: 'idle',
      problems: { IBAN: { kind: 'ibanChecksum' } },
      draft: { values: { firstName: 'Ada', lastName: 'Lovelace' } },
    })
    // Typing in the field clears its own problem only.
    expect(run(s, toDestination({ type: 'EDIT', values: { IBAN: 'DE89' } }))).toMatchObject({ problems: {} })
  })
  it('a valid form creates, once', () => {
    const s = run(sepa(atBeneficiary()), toDestination({ type: 'SUBMIT', now: NOW }))
    expect(s).toMatchObject({ tag: 'beneficiary', work: 'creating' })
    expect(run(s, toDestination({ type: 'SUBMIT', now: NOW }))).toBe(s)
    expect(run(s, toDestination({ type: 'EDIT', values: { IBAN: 'x' } }))).toBe(s)
  })
  it('an expired quote is re-quoted, never sent, and the typed beneficiary survives the new price', () => {
    const s = run(sepa(atBeneficiary()), toDestination({ type: 'SUBMIT', now: Date.parse(quote.expiresAt) + 1 }))
    expect(s).toMatchObject({ tag: 'quoting', requote: true })
    const again = run(s, { type: 'QUOTED', quote: { ...quote, quoteId: 'bq_2' }, at: NOW }, { type: 'CONFIRM', now: NOW })
    expect(again).toMatchObject({
      tag: 'beneficiary',
      quote: { quoteId: 'bq_2' },
      draft: { values: { IBAN: 'DE89 3704 0044 0532 0130 00', firstName: 'Ada' } },
    })
  })
  it('the quote running out while the buyer types re-quotes; while creating it waits for the answer', () => {
    expect(run(sepa(atBeneficiary()), { type: 'EXPIRED' }).tag).toBe('quoting')
    const creating = run(sepa(atBeneficiary()), toDestination({ type: 'SUBMIT', now: NOW }))
    expect(run(creating, { type: 'EXPIRED' })).toBe(creating)
    expect(run(creating, toDestination({ type: 'CREATE_FAILED', problem: { key: 'error.quoteExpired' }, expired: true }))).toMatchObject({
      tag: 'quoting',
      requote: true,
    })
  })
  it('a refused field is marked, with the service’s words, and the form kept', () => {
    const s = run(
      sepa(atBeneficiary()),
      toDestination({ type: 'SUBMIT', now: NOW }),
      toDestination({
        type: 'CREATE_FAILED',
        problem: { key: 'error.invalid', code: 'invalid_request', detail: 'x' },
        field: { name: 'IBAN', problem: { kind: 'refused' } },
      }),
    )
    expect(s).toMatchObject({
      tag: 'beneficiary',
      work: 'idle',
      problem: { code: 'invalid_request' },
      problems: { IBAN: { kind: 'refused' } },
      draft: { values: { firstName: 'Ada' } },
    })
  })
  it('a field only the request’s own checks refuse (an address’s checksum) is marked, nothing else said, the form kept', () => {
    const creating = run(sepa(atBeneficiary()), toDestination({ type: 'SUBMIT', now: NOW }))
    const s = run(creating, toDestination({ type: 'INVALID', problems: { IBAN: { kind: 'ibanChecksum' } } }))
    expect(s).toMatchObject({
      tag: 'beneficiary',
      work: 'idle',
      problems: { IBAN: { kind: 'ibanChecksum' } },
      problem: undefined,
      draft: { values: { firstName: 'Ada' } },
    })
    expect(run(s, toDestination({ type: 'INVALID', problems: {} }))).toBe(s)
  })
  it('created: on to funding with the payout', () => {
    expect(run(sepa(atBeneficiary()), toDestination({ type: 'SUBMIT', now: NOW }), toDestination({ type: 'CREATED', record }))).toMatchObject({
      tag: 'funding',
      record: { id: 'bp_1' },
      work: 'idle',
      buyer,
    })
  })
  it('back keeps what was typed', () => {
    const back = run(sepa(atBeneficiary()), toDestination({ type: 'BACK' }))
    expect(back.tag).toBe('quote')
    expect(run(back, { type: 'CONFIRM', now: NOW })).toMatchObject({ draft: { values: { IBAN: 'DE89 3704 0044 0532 0130 00' } } })
  })
  it('requires_action: back to the identity provider for a higher tier, the beneficiary kept; verified, the same request again', () => {
    const creating = run(sepa(atBeneficiary()), toDestination({ type: 'SUBMIT', now: NOW }))
    expect(creating).toMatchObject({ work: 'creating' })
    const higher = run(
      creating,
      toDestination({ type: 'CREATE_FAILED', problem: { key: 'error.requiresAction', code: 'requires_action' }, requiresAction: true }),
    )
    expect(higher).toMatchObject({
      tag: 'identity',
      form: { wallet: buyer.wallet },
      pending: { tier: 'higher', draft: { values: { IBAN: 'DE89 3704 0044 0532 0130 00' } } },
    })
    const onboarded = run(higher, toIdentity({ type: 'AUTH_CODE', code: 'c2' }))
    // A buyer known before this page typed no details here: they are asked (identity.test.ts holds that typed ones go again unasked); the old refusal is gone.
    expect(onboarded).toMatchObject({ tag: 'details', work: 'idle', serverMessage: undefined })
    const back = transition(
      { ...(onboarded as Extract<PayoutState, { tag: 'details' }>), work: 'submitting' },
      toIdentity({ type: 'ONBOARDED', accountId: 'acc_1', walletId: 'w_1', kycStatus: 'approved' }),
      ctx,
    )
    // Nothing typed is lost, and the same request goes again (the same quote: its reference is the request's own, persisted.ts).
    expect(back).toMatchObject({ tag: 'beneficiary', draft: { values: { IBAN: 'DE89 3704 0044 0532 0130 00', firstName: 'Ada' } }, quote: { quoteId: 'bq_1' } })
    expect(run(back, toDestination({ type: 'SUBMIT', now: NOW }))).toMatchObject({ work: 'creating' })
  })
  it('requires_action then back: the beneficiary as typed', () => {
    const higher = run(
      sepa(atBeneficiary()),
      toDestination({ type: 'SUBMIT', now: NOW }),
      toDestination({ type: 'CREATE_FAILED', problem: { key: 'error.requiresAction', code: 'requires_action' }, requiresAction: true }),
    )
    expect(run(higher, toIdentity({ type: 'BACK' }))).toMatchObject({ tag: 'beneficiary', buyer, draft: { values: { firstName: 'Ada' } } })
  })
  it('the purpose is checked where the schema offers it', () => {
    // One schema per rail (beneficiary.ts schemasFor): a SWIFT quote's beneficiary is bank_swift.
    const atSwift = atBeneficiary() as Extract<PayoutState, { tag: 'beneficiary' }>
    const swift = run(
      { ...atSwift, draft: { ...atSwift.draft, schema: 'bank_swift' } },
      toDestination({ type: 'EDIT', purpose: 'x'.repeat(513) }),
      toDestination({ type: 'SUBMIT', now: NOW }),
    )
    expect(swift).toMatchObject({ problems: { purpose: { kind: 'tooLong' } } })
  })
})

describe('payout machine: funding', () => {
  it('send only once a wallet is connected, and only while idle', () => {
    expect(run(funding(), toFunding({ type: 'CONFIRM', now: NOW }))).toMatchObject({ work: 'idle' })
    const sending = run(connected(), toFunding({ type: 'CONFIRM', now: NOW }))
    expect(sending).toMatchObject({ work: 'checking', sender: buyer.wallet })
    expect(run(sending, toFunding({ type: 'CONFIRM', now: NOW }))).toBe(sending)
    expect(run(sending, toFunding({ type: 'WALLET', event: { type: 'CHOOSE', wallet } }))).toBe(sending)
  })
  it('a payout past its deadline is not funded', () => {
    expect(run(connected(), toFunding({ type: 'CONFIRM', now: Date.parse(record.expiresAt) }))).toMatchObject({ work: 'idle', problem: { kind: 'expired' } })
  })
  it('a block (wrong chain, wallet refusal, spent address) returns to idle and never sends by itself', () => {
    const blocked = run(
      connected(),
      toFunding({ type: 'CONFIRM', now: NOW }),
      toFunding({ type: 'WORK', work: 'switching' }),
      toFunding({ type: 'BLOCKED', problem: { kind: 'wrongChain' } }),
    )
    expect(blocked).toMatchObject({ tag: 'funding', work: 'idle', problem: { kind: 'wrongChain' } })
    // WORK while idle is a stale report: ignored.
    expect(run(blocked, toFunding({ type: 'WORK', work: 'sending' }))).toBe(blocked)
  })
  it('sent: followed from here, with the hash and the sender kept', () => {
    const s = run(
      connected(),
      toFunding({ type: 'CONFIRM', now: NOW }),
      toFunding({ type: 'WORK', work: 'sending' }),
      toFunding({ type: 'SENT', txHash: `0x${'b'.repeat(64)}`, sender: buyer.wallet }),
    )
    expect(s).toMatchObject({ tag: 'tracking', record: { txHash: `0x${'b'.repeat(64)}`, sender: buyer.wallet }, attempt: 0 })
  })
  it('an address that already received: followed, with a notice, never sent to', () => {
    expect(run(connected(), toFunding({ type: 'CONFIRM', now: NOW }), toFunding({ type: 'ALREADY_FUNDED' }))).toMatchObject({
      tag: 'tracking',
      alreadyFunded: true,
    })
  })
  it('start over leaves the unfunded payout to expire', () => {
    expect(run(connected(), toFunding({ type: 'RESTART' }))).toMatchObject({ tag: 'form', buyer })
  })
})

describe('payout machine: tracking', () => {
  const following = (): PayoutState => ({ tag: 'tracking', buyer, record: { ...record, txHash: `0x${'b'.repeat(64)}` }, attempt: 0 })
  it('pending → converting → sent are followed; settled, rejected and returned end it', () => {
    let s = run(
      following(),
      toFunding({ type: 'TRACK', status: status('pending') }),
      toFunding({ type: 'TRACK', status: status('converting') }),
      toFunding({ type: 'TRACK', status: status('sent') }),
    )
    expect(s).toMatchObject({ tag: 'tracking', status: { status: 'sent' } })
    s = run(s, toFunding({ type: 'TRACK', status: status('settled') }))
    expect(s).toMatchObject({ tag: 'result', status: { status: 'settled' } })
    expect(run(following(), toFunding({ type: 'TRACK', status: status('rejected', { reason: 'compliance_check' }) }))).toMatchObject({
      tag: 'result',
      status: { reason: 'compliance_check' },
    })
    expect(run(following(), toFunding({ type: 'TRACK', status: status('returned', { reason: 'closed' }) }))).toMatchObject({
      tag: 'result',
      status: { status: 'returned' },
    })
  })
  it('trouble while following: waiting, an error with a retry, another tab', () => {
    let s = run(following(), toFunding({ type: 'WAITING', waiting: true }))
    expect(s).toMatchObject({ waiting: true })
    s = run(s, toFunding({ type: 'TRACK_ERROR', problem: { key: 'error.server' } }), toFunding({ type: 'RETRY' }))
    expect(s).toMatchObject({ attempt: 1, problem: undefined })
    expect(run(s, toFunding({ type: 'ELSEWHERE', tab: 'elsewhere' }))).toMatchObject({ tab: 'elsewhere' })
    expect(run(following(), toFunding({ type: 'RESTART' })).tag).toBe('tracking')
  })
  it('a new payout from the result starts a fresh form', () => {
    const done = run(following(), toFunding({ type: 'TRACK', status: status('settled') }))
    expect(run(done, toFunding({ type: 'RESTART' }))).toMatchObject({ tag: 'form', buyer, draft: { values: {} } })
  })
})
