// The one-off deposit's effects with a fake clock and a fake partner backend: reference data,
// the idempotency key kept before the first attempt (a lost answer retried gets the same deposit),
// the status poll at a bank pace with its trouble, and what is kept for a reload.
// As a page runs once its first screen is up: the stored-record checks and the answers' schemas are here.
import '../../setup/afterFirstScreen'
import '../../../../src/polling/pollStatus'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createPartnerHttp } from '../../../../src/api/partnerHttp'
import { BANK_POLL_MS, type BankDepositDeps, createBankDepositEffects } from '../../../../src/flows/bankDeposit/effects'
import type { BankDepositEvent, BankDepositState, StatusView, StoredDeposit } from '../../../../src/flows/bankDeposit/machine'
import { formState, initialState, transition } from '../../../../src/flows/bankDeposit/machine'
import { buyerAccount } from '../../../../src/identity/account'
import { usedAuthCodes } from '../../../../src/identity/usedCodes'
import { type FakeApi, fakeApi } from '../../helpers/fakeApi'
import { newReference } from '../../../../src/flows/bankDeposit/creating'
import { attemptStore, depositStore, pendingStore } from '../../../../src/flows/bankDeposit/persisted'
import { flowKey } from '../../../../src/storage/storedCheck'
import { driveFlow } from '../../helpers/driveFlow'
import { type FakeClock, createFakeClock, until } from '../../helpers/fakeClock'
import { memoryStorage } from '../../helpers/memoryStorage'
import { useFakeQueryTime } from '../../helpers/queryTime'

const START = Date.parse('2026-11-23T12:00:00Z')
const ctx = { decimalMark: '.' as const, currencies: ['EUR', 'USD'], form: (country?: string) => ({ country: country ?? '', currency: 'EUR', amount: '' }) }
const resumeState = (deposit: StoredDeposit, status: StatusView) => initialState({ deposit, status })
const account = { accountId: 'acc_1', walletId: 'w_1', wallet: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }
const METHODS = { countries: { DE: { currency: 'EUR', bank_deposit: true, virtual_account: true, card: true } } }
const LIMITS = { limits: [{ currency: 'EUR', rail: 'sepa_instant', direction: 'both', min: '1.00', max: '100000.00', settlement: 'instant' }] }
const CREATED = {
  id: 'bd_1',
  details: { reference: 'SBX-1', iban: 'DE89370400440532013000', bic: 'SBXBDEFFXXX' },
  rail: 'sepa_instant',
  expiresAt: '2026-11-23T13:00:00Z',
  status: 'awaiting_funds',
}

type Call = { method: string; path: string; body?: Record<string, unknown> }
type Answer = { status?: number; body: unknown } | 'network'

/** The partner backend: answers per path, in turn (the last one repeats), every call recorded. */
function fakeBackend() {
  const calls: Call[] = []
  const answers = new Map<string, Answer[]>()
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    const u = new URL(String(url))
    const path = u.pathname.replace(/^\/partner/, '')
    calls.push({ method: init?.method ?? 'GET', path, body: init?.body ? JSON.parse(String(init.body)) : undefined })
    const list = answers.get(path) ?? []
    const answer = list.length > 1 ? list.shift()! : list[0]
    if (!answer) return new Response(JSON.stringify({ error: { code: 'not_found', message: 'no answer' } }), { status: 404 })
    if (answer === 'network') throw new TypeError('Failed to fetch')
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'Content-Type': 'application/json' } })
  }
  return {
    calls,
    fetch: fetch as typeof globalThis.fetch,
    answer(path: string, ...list: Answer[]) {
      answers.set(path, list)
    },
    posts: (path: string) => calls.filter((c) => c.method === 'POST' && c.path === path),
  }
}

let clock: FakeClock
let backend: ReturnType<typeof fakeBackend>
let storage: Storage
type Driver = ReturnType<typeof driveFlow<BankDepositState, BankDepositEvent>> & { deps: BankDepositDeps }
let driver: Driver | undefined
let references: number

beforeEach(() => {
  clock = createFakeClock(START)
  useFakeQueryTime(clock)
  backend = fakeBackend()
  backend.answer('/payment-methods', { body: METHODS })
  backend.answer('/limits', { body: LIMITS })
  backend.answer('/bank/deposit', { body: CREATED })
  storage = memoryStorage()
  references = 0
})
afterEach(() => {
  driver?.dispose()
  driver = undefined
})

function drive(start: BankDepositState, deps: Partial<BankDepositDeps> = {}): Driver {
  const all: BankDepositDeps = {
    http: createPartnerHttp({ base: 'https://shop.example/partner', fetch: backend.fetch }),
    store: depositStore(storage, clock.now),
    attempts: attemptStore(storage, clock.now),
    pending: pendingStore(storage),
    identity: { api: fakeApi(), accounts: buyerAccount(storage), usedCodes: usedAuthCodes(storage) },
    clock,
    newReference: () => `bd-ref-${++references}`,
    pollIntervalMs: 1_000,
    currencies: ['EUR', 'GBP'],
    ...deps,
  }
  const d = driveFlow<BankDepositState, BankDepositEvent>(
    start,
    (s, e) => transition(s, e, ctx),
    (dispatch) => createBankDepositEffects(all, dispatch),
  )
  driver = { ...d, deps: all }
  return driver
}

const form = { country: 'DE', currency: 'EUR', amount: '120' }

async function toCreating(d: Driver) {
  await until(() => d.types().includes('REFERENCE'))
  d.dispatch({ type: 'SUBMIT' })
}

describe('reference data', () => {
  it('loads payment methods and limits from the partner backend, once', async () => {
    const d = drive(formState(account, form))
    await until(() => d.types().includes('REFERENCE'))
    expect(backend.calls.map((c) => `${c.method} ${c.path}`).sort()).toEqual(['GET /limits', 'GET /payment-methods'])
    expect(d.state()).toMatchObject({ reference: { methods: METHODS, limits: LIMITS.limits } })
  })

  it('limits that fail are no known limit; payment methods that fail are a problem to retry', async () => {
    backend.answer('/limits', { status: 500, body: { error: { code: 'internal', message: 'x' } } })
    const d = drive(formState(account, form))
    await until(() => d.types().includes('REFERENCE'))
    expect(d.state()).toMatchObject({ reference: { limits: [] } })

    backend.answer('/payment-methods', 'network', { body: METHODS })
    const e = drive(formState(account, form))
    await until(() => e.types().includes('REFERENCE_FAILED'))
    expect(e.state()).toMatchObject({ loadProblem: { key: 'error.partnerUnreachable' } })
    e.dispatch({ type: 'RELOAD' })
    await until(() => e.types().includes('REFERENCE'))
  })
})

describe('creating under an idempotency key', () => {
  it('sends the contract fields with a fresh reference, keeps the deposit, forgets the attempt', async () => {
    const d = drive(formState(account, form))
    await toCreating(d)
    await until(() => d.state().tag === 'tracking')
    expect(backend.posts('/bank/deposit')[0].body).toEqual({
      accountId: 'acc_1',
      walletId: 'w_1',
      fiatCurrency: 'EUR',
      fiatAmount: '120',
      reference: 'bd-ref-1',
    })
    expect(d.deps.store.load()).toMatchObject({
      deposit: { id: 'bd_1', amount: '120', currency: 'EUR', details: { reference: 'SBX-1' } },
      status: { status: 'awaiting_funds' },
    })
    expect(d.deps.attempts.load()).toBeUndefined()
  })

  it('a lost answer, retried (even after a reload), sends the same reference', async () => {
    backend.answer('/bank/deposit', 'network', { body: CREATED })
    const d = drive(formState(account, form))
    await toCreating(d)
    await until(() => d.types().includes('CREATE_FAILED'))
    // The key was kept before the first attempt.
    expect(d.deps.attempts.load()).toMatchObject({ reference: 'bd-ref-1', amount: '120' })
    d.dispose()
    // A reload: a new runner over the same storage.
    const again = drive(formState(account, form))
    await toCreating(again)
    await until(() => again.state().tag === 'tracking')
    expect(backend.posts('/bank/deposit').map((c) => c.body?.reference)).toEqual(['bd-ref-1', 'bd-ref-1'])
    expect(references).toBe(1)
  })

  it('another amount is another deposit: a new reference', async () => {
    backend.answer('/bank/deposit', { status: 502, body: { error: { code: 'upstream_error', message: 'x' } } }, { body: CREATED })
    const d = drive(formState(account, form))
    await toCreating(d)
    await until(() => d.types().includes('CREATE_FAILED'))
    d.dispatch({ type: 'EDIT', amount: '130' })
    d.dispatch({ type: 'SUBMIT' })
    await until(() => d.state().tag === 'tracking')
    expect(backend.posts('/bank/deposit').map((c) => c.body?.reference)).toEqual(['bd-ref-1', 'bd-ref-2'])
  })

  it("the partner's reference is the key when given; a failure pins the amount", async () => {
    backend.answer('/bank/deposit', { status: 500, body: { error: { code: 'internal', message: 'x' } } }, { body: CREATED })
    const d = drive(formState(account, form), { partnerReference: 'order-42' })
    await toCreating(d)
    await until(() => d.types().includes('CREATE_FAILED'))
    expect(d.state()).toMatchObject({ pinned: true, problem: { code: 'internal' } })
    d.dispatch({ type: 'SUBMIT' })
    await until(() => d.state().tag === 'tracking')
    expect(backend.posts('/bank/deposit').map((c) => c.body?.reference)).toEqual(['order-42', 'order-42'])
    expect(references).toBe(0)
  })
})

describe('following', () => {
  const stored = {
    id: 'bd_1',
    rail: 'sepa_instant',
    expiresAt: '2026-11-23T13:00:00Z',
    details: { reference: 'SBX-1' },
    currency: 'EUR',
    amount: '120',
    wallet: account.wallet,
    createdAt: START,
  }
  const record = (status: string, extra: Record<string, unknown> = {}) => ({ body: { id: 'bd_1', status, updatedAt: '2026-11-23T12:00:00Z', ...extra } })

  it('polls at the given pace through expired → received → converting → settled, keeping each status', async () => {
    backend.answer(
      '/bank/deposit/status',
      record('expired'),
      record('received', { fiatAmount: '95.50' }),
      record('converting', { fiatAmount: '95.50' }),
      record('settled', { fiatAmount: '95.50', cryptoAmount: '102.76', cryptoCurrency: 'EURC', settlementTxHash: `0x${'b'.repeat(64)}` }),
    )
    const d = drive(resumeState(stored, { id: 'bd_1', status: 'awaiting_funds' }))
    await until(() => backend.posts('/bank/deposit/status').length === 1)
    expect(d.state()).toMatchObject({ tag: 'tracking', status: { status: 'expired' } })
    expect(d.deps.store.load()).toMatchObject({ status: { status: 'expired' } })
    await clock.advance(999)
    expect(backend.posts('/bank/deposit/status')).toHaveLength(1)
    await clock.advance(1)
    await until(() => d.state().tag === 'tracking' && (d.state() as { status: { status: string } }).status.status === 'received')
    expect(d.deps.store.load()).toMatchObject({ status: { status: 'received', fiatAmount: '95.50' } })
    await clock.advance(1_000)
    await clock.advance(1_000)
    await until(() => d.state().tag === 'result')
    expect(d.state()).toMatchObject({ status: { cryptoCurrency: 'EURC', cryptoAmount: '102.76' } })
    expect(d.deps.store.load()).toMatchObject({ status: { status: 'settled' } })
    const polls = backend.posts('/bank/deposit/status').length
    await clock.advance(10_000)
    expect(backend.posts('/bank/deposit/status')).toHaveLength(polls)
  })

  it('a bank pace by default: 15 s between polls', async () => {
    expect(BANK_POLL_MS).toBe(15_000)
    backend.answer('/bank/deposit/status', record('awaiting_funds'))
    drive(resumeState(stored, { id: 'bd_1', status: 'awaiting_funds' }), { pollIntervalMs: undefined })
    await until(() => backend.posts('/bank/deposit/status').length === 1)
    await clock.advance(14_999)
    expect(backend.posts('/bank/deposit/status')).toHaveLength(1)
    await clock.advance(1)
    await until(() => backend.posts('/bank/deposit/status').length === 2)
  })

  it('a status that is not found is an error the buyer retries; RETRY polls again', async () => {
    backend.answer('/bank/deposit/status', { status: 404, body: { error: { code: 'not_found', message: 'x' } } }, record('received'))
    const d = drive(resumeState(stored, { id: 'bd_1', status: 'awaiting_funds' }))
    await until(() => d.types().includes('TRACK_ERROR'))
    expect(d.state()).toMatchObject({ problem: { code: 'not_found' } })
    d.dispatch({ type: 'RETRY' })
    await until(() => d.types().includes('TRACK'))
    expect(d.state()).toMatchObject({ status: { status: 'received' }, problem: undefined })
  })
})

describe('the identity steps in front', () => {
  it('the onboarding call runs from the same effects; the buyer it made goes on to the form, whose reference data then loads', async () => {
    const api: FakeApi = fakeApi({ '/fiat/onboard': () => ({ accountId: 'acc_9', walletId: 'w_9', kycStatus: 'approved' }) })
    const identity = { api, accounts: buyerAccount(storage), usedCodes: usedAuthCodes(storage) }
    const applicant = { wallet: account.wallet, nationality: 'DE', country: 'DE', phone: '+49 151 23456789', name: 'Ada Lovelace', email: 'ada@example.com' }
    const d = drive({ tag: 'details', form: applicant, authCode: 'code-1', errors: {}, work: 'submitting' }, { identity })
    await until(() => d.state().tag === 'form', 'the form')
    expect(api.to('/fiat/onboard')).toHaveLength(1)
    expect(identity.accounts.load()).toMatchObject({ accountId: 'acc_9', walletId: 'w_9' })
    expect(identity.usedCodes.has('code-1')).toBe(true)
    expect(d.state()).toMatchObject({ tag: 'form', account: { accountId: 'acc_9' }, form: { country: 'DE' } })
    await until(() => d.types().includes('REFERENCE'))
  })
})

describe('persisted', () => {
  it('a fresh reference is 32 hex digits, within the 64 the contract allows', () => {
    expect(newReference()).toMatch(/^bd-[0-9a-f]{32}$/)
    expect(newReference()).not.toBe(newReference())
  })

  it("a record as the flow kept it before the stages were renamed (held in a buyer's storage) resumes at its status", () => {
    const kept = {
      deposit: {
        id: 'bd_1',
        rail: 'sepa_instant',
        expiresAt: '2026-11-23T13:00:00Z',
        details: { reference: 'SBX-1', iban: 'DE89370400440532013000' },
        currency: 'EUR',
        amount: '120',
        country: 'DE',
        wallet: account.wallet,
        createdAt: START,
      },
      status: { id: 'bd_1', status: 'received', fiatAmount: '120.00' },
    }
    storage.setItem(flowKey('bankDeposit'), JSON.stringify(kept))
    const found = depositStore(storage, () => START).load()
    expect(found).toEqual(kept)
    expect(initialState(found, { account, form: { country: 'DE', currency: 'EUR', amount: '' } })).toMatchObject({
      tag: 'tracking',
      resumed: true,
      deposit: { id: 'bd_1' },
      status: { status: 'received' },
    })
    storage.setItem(flowKey('bankDeposit'), JSON.stringify({ ...kept, status: { id: 'bd_1', status: 'settled' } }))
    expect(initialState(depositStore(storage, () => START).load())).toMatchObject({ tag: 'result' })
  })

  it('forgets an attempt after a day and a deposit after 30 days', () => {
    let now = START
    const attempts = attemptStore(storage, () => now)
    attempts.save({ reference: 'r', accountId: 'a', currency: 'EUR', amount: '1', savedAt: now })
    now += 24 * 3_600_000 + 1
    expect(attempts.load()).toBeUndefined()
    const store = depositStore(storage, () => now)
    store.save({
      deposit: { id: 'bd', rail: 'sepa', expiresAt: 'x', details: { reference: 'R' }, currency: 'EUR', amount: '1', wallet: account.wallet, createdAt: now },
      status: { id: 'bd', status: 'received' },
    })
    expect(store.load()).toBeDefined()
    now += 30 * 24 * 3_600_000 + 1
    expect(store.load()).toBeUndefined()
  })
})
