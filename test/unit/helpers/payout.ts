// The payout's one test harness: its fixtures (the embedding's source and config, the machine's
// context, a buyer, a quote, a record), its events as the machine takes them (each sub-machine's
// under its name), a fake partner backend and wallet, and the machine driven with its effects.
import { afterEach } from 'vitest'
import type { CardPayoutQuote } from '../../../src/api/cardPayout'
import type { PartnerHttp } from '../../../src/api/partnerHttp'
import type { PayoutQuote } from '../../../src/api/payout'
import type { WidgetConfig } from '../../../src/config/config'
import { type Source, emptyDraft } from '../../../src/flows/payout/base'
import { bankCalls } from '../../../src/flows/payout/bank'
import { beneficiaryStep } from '../../../src/flows/payout/beneficiary'
import { cardStep } from '../../../src/flows/payout/cardStep'
import type { PayoutCalls, PayoutDeps } from '../../../src/flows/payout/context'
import type { DestinationEvent } from '../../../src/flows/payout/destination'
import { type ChainActions, createPayoutEffects } from '../../../src/flows/payout/effects'
import type { ConnectState, FundingEvent } from '../../../src/flows/payout/funding'
import { type Context, type PayoutEvent, type PayoutState, transition } from '../../../src/flows/payout/machine'
import { type PayoutName, payoutStore, pendingStore, referenceStore, spentAddresses } from '../../../src/flows/payout/persisted'
import type { PayoutRecord } from '../../../src/flows/payout/record'
import type { BuyerAccountStore } from '../../../src/identity/account'
import type { IdentityDeps } from '../../../src/identity/effects'
import type { IdentityEvent } from '../../../src/identity/machine'
import type { WalletInfo } from '../../../src/kernel/types'
import type { ChosenWallet } from '../../../src/kernel/connectWallet'
import { type FakeClock, createFakeClock, until } from './fakeClock'
import { memoryStorage } from './memoryStorage'
import { configFrom } from './links'

// ---------------------------------------------------------------------------------------------
// Fixtures

export const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
/** The buyer's verified wallet. */
export const BUYER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
/** Another wallet than the buyer's. */
export const OTHER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
/** The payout's deposit address. */
export const DEPOSIT = '0x1111111111111111111111111111111111111111'
export const HASH = `0x${'ab'.repeat(32)}` as `0x${string}`
export const NOW = Date.parse('2026-11-24T10:00:00Z')

export const source: Source = { chainId: 8453, token: TOKEN, symbol: 'USDC', decimals: 6 }

/** The embedding's options for a payout funded on Base (`extra`: a signed reference, …). */
export function payoutConfig(extra: Record<string, unknown> = {}): WidgetConfig {
  return configFrom({
    apiBase: 'http://127.0.0.1:8787',
    partnerBase: 'http://127.0.0.1:8787/partner',
    chains: [{ id: 8453, name: 'Base', rpcUrl: 'http://127.0.0.1:8545' }],
    sources: [source],
    ...extra,
  })
}
export const config = payoutConfig()

/** The machine's context for a bank or a card payout (the destination step its entry chooses). */
export const ctxOf = (destination: 'bank' | 'card', extra: Partial<Context> = {}): Context => ({
  destination: destination === 'bank' ? beneficiaryStep : cardStep,
  source,
  decimalMark: '.',
  emptyForm: () => ({ kind: 'fiat', amount: '', currency: 'EUR', country: '', rail: '' }),
  ...extra,
})
export const ctx = ctxOf('bank')

export const buyer = { accountId: 'acc_1', walletId: 'w_1', wallet: BUYER }
/** Two buyers of one shared device: A's wallet is the verified one above, B's the other. */
export const buyerA = { accountId: 'acc_A', walletId: 'w_A', wallet: BUYER }
export const buyerB = { accountId: 'acc_B', walletId: 'w_B', wallet: OTHER }
export const wallet: ChosenWallet = { kind: 'injected', id: 'w|test', name: 'Test', rdns: 'test' }
/** A wallet the buyer did not verify. */
export const otherWallet: ChosenWallet = { kind: 'injected', id: 'w|other', name: 'Other', rdns: 'other' }

/** A bank_sepa beneficiary as the buyer types it. */
export const sepaValues = (IBAN: string) => ({ name: 'Ada Lovelace', accountType: 'individual', firstName: 'Ada', lastName: 'Lovelace', IBAN })

/** A SEPA Instant quote for 20 EUR, held an hour unless `extra` says otherwise. */
export const bankQuote = (extra: Partial<PayoutQuote> = {}): PayoutQuote => ({
  quoteId: 'bq_1',
  cryptoAmount: '22.282609',
  fiatAmount: '20.00',
  rate: '0.92',
  rail: 'sepa_instant',
  estimatedSettlement: 'instant',
  providerFee: '0.25',
  ourFee: '0.10',
  expiresAt: new Date(NOW + 3_600_000).toISOString(),
  ...extra,
})

export const cardQuote = (extra: Partial<CardPayoutQuote> = {}): CardPayoutQuote => ({
  quoteId: 'cq_1',
  cryptoAmount: '21.5',
  fiatAmount: '20.00',
  rate: '0.93',
  providerFee: '0.30',
  ourFee: '0',
  expiresAt: new Date(NOW + 3_600_000).toISOString(),
  ...extra,
})

/** The bank payout the service created for `bankQuote()` (its answer), and the record kept of it. */
export const createdPayout = (expiresAt = bankQuote().expiresAt) => ({
  id: 'bp_1',
  depositAddress: DEPOSIT,
  depositAmount: '22.282609',
  chain: 8453,
  status: 'pending',
  expiresAt,
})
export const recordOf = (extra: Partial<PayoutRecord> = {}): PayoutRecord => ({
  id: 'bp_1',
  depositAddress: DEPOSIT,
  depositAmount: '22.282609',
  chain: 8453,
  expiresAt: bankQuote().expiresAt,
  token: TOKEN,
  symbol: 'USDC',
  decimals: 6,
  fiatAmount: '20.00',
  fiatCurrency: 'EUR',
  rail: 'sepa_instant',
  settlement: 'instant',
  accountId: 'acc_1',
  wallet: BUYER,
  createdAt: NOW,
  ...extra,
})

/** The connect step of a 20 EUR price to Germany, no wallet listed; `known`: a buyer this device keeps. */
export const connectState = (known?: { accountId: string; walletId: string; wallet: string }): ConnectState => ({
  tag: 'connect',
  ...(known ? { buyer: known } : {}),
  form: { kind: 'fiat', amount: '20', currency: 'EUR', country: 'DE', rail: '' },
  draft: emptyDraft(),
  ask: { kind: 'fiat', amount: '20', currency: 'EUR', country: 'DE' },
  quote: bankQuote(),
  quotedAt: NOW,
  connection: { tag: 'wallets', wallets: [] },
  work: 'idle',
})

// A record as the review tests of the stores read it.
export const BUYER_WALLET = '0x1111111111111111111111111111111111111111'
export const DEPOSIT_ADDRESS = '0x2222222222222222222222222222222222222222'
export const payoutRecord = (extra: Partial<PayoutRecord> = {}): PayoutRecord => ({
  id: 'po_1',
  depositAddress: DEPOSIT_ADDRESS,
  depositAmount: '10',
  chain: 8453,
  expiresAt: '2026-11-23T13:00:00Z',
  token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  symbol: 'USDC',
  decimals: 6,
  fiatAmount: '9',
  fiatCurrency: 'EUR',
  rail: 'sepa',
  settlement: '1d',
  accountId: 'acc_1',
  wallet: BUYER_WALLET,
  createdAt: Date.now(),
  ...extra,
})

// ---------------------------------------------------------------------------------------------
// Events

export const toFunding = (event: FundingEvent): PayoutEvent => ({ type: 'FUNDING', event })
/** The buyer chooses `w` among the wallets that announced themselves (the connect-wallet sub-machine's choice). */
export const choose = (w: ChosenWallet): PayoutEvent[] => [
  toFunding({ type: 'WALLET', event: { type: 'WALLETS', wallets: [w] } }),
  toFunding({ type: 'WALLET', event: { type: 'CHOOSE', wallet: w } }),
]
export const toDestination = (event: DestinationEvent): PayoutEvent => ({ type: 'DESTINATION', event })
export const toIdentity = (event: IdentityEvent): PayoutEvent => ({ type: 'IDENTITY', event })

/** Events in order through the pure transition. */
export const runWith =
  (c: Context) =>
  (state: PayoutState, ...events: PayoutEvent[]) =>
    events.reduce((s, e) => transition(s, e, c), state)
export const run = runWith(ctx)

// ---------------------------------------------------------------------------------------------
// Fakes

type Calls = Array<{ path: string; body: Record<string, unknown> }>

/** A partner backend answering each path from its list (the last answer repeats; an Error is thrown). */
export function fakePartner(answers: Record<string, Array<unknown | Error>>): PartnerHttp & { calls: Calls } {
  const calls: Calls = []
  const answer = async (path: string, body: Record<string, unknown>) => {
    calls.push({ path, body })
    const list = answers[path] ?? []
    const next = list.length > 1 ? list.shift() : list[0]
    if (next instanceof Error) throw next
    if (next === undefined) throw new Error(`no answer for ${path}`)
    return next as never
  }
  return { calls, get: (path) => answer(path, {}), post: (path, body) => answer(path, body as Record<string, unknown>) }
}

export type FakeWallet = { actions: ChainActions; sent: unknown[] }

/**
 * A wallet and its chain: `chainIds` answered in turn (the last repeats), a switch that succeeds or
 * not, the buyer's `balance`, what the payout's address already `held`, and the send's answer
 * (`sent`: the list the transfers asked for go to, shared by the pages of one test).
 */
export function fakeWallet(
  opts: {
    chainIds?: number[]
    ensureChain?: boolean
    balance?: bigint
    held?: bigint
    onSend?: () => void
    answer?: () => Promise<`0x${string}`>
    sent?: unknown[]
  } = {},
): FakeWallet {
  const sent: unknown[] = opts.sent ?? []
  const chainIds = opts.chainIds ?? [8453]
  let i = 0
  const actions: ChainActions = {
    connect: async () => BUYER,
    currentChainId: async () => chainIds[Math.min(i++, chainIds.length - 1)],
    ensureChain: async () => opts.ensureChain ?? true,
    readClient: () => ({}) as never,
    tokenBalance: async (_client, _token, owner) => (owner.toLowerCase() === DEPOSIT ? (opts.held ?? 0n) : (opts.balance ?? 100_000_000n)),
    nativeBalance: async () => 10n ** 18n,
    send: async (_p, _c, _a, tx) => {
      opts.onSend?.()
      sent.push(tx)
      return opts.answer ? opts.answer() : HASH
    },
  }
  return { actions, sent }
}

/** The identity steps' seams, unused by the payout's own effects. */
export const noAccounts = (forget: () => void = () => {}): BuyerAccountStore => ({ load: () => undefined, save: () => {}, clear: () => {}, forget })
export const noIdentity = (forget?: () => void): IdentityDeps => ({ api: {} as never, accounts: noAccounts(forget), usedCodes: { add: () => {} } })

// ---------------------------------------------------------------------------------------------
// The machine with its effects

export type DriveOptions = {
  partner: PartnerHttp
  calls?: PayoutCalls
  ctx?: Context
  config?: WidgetConfig
  storage?: Storage
  name?: PayoutName
  wallet?: FakeWallet
  /** The wallets that announce themselves (none: the step waits). */
  wallets?: WalletInfo[]
  clock?: FakeClock
  /** What the stores read as now (their records' age). */
  now?: () => number
  newReference?: () => string
  forget?: () => void
  deps?: Partial<PayoutDeps>
}

let disposers: Array<() => void> = []
afterEach(() => {
  for (const d of disposers) d()
  disposers = []
})

/** The payout's machine and effects as a page runs them, from `initial`; every event it saw. */
export function drive(initial: PayoutState, opts: DriveOptions) {
  const storage = opts.storage ?? memoryStorage()
  const clock = opts.clock ?? createFakeClock(NOW)
  const w = opts.wallet ?? fakeWallet()
  const c = opts.ctx ?? ctx
  const now = opts.now ?? Date.now
  const store = payoutStore(storage, now, opts.name)
  const spent = spentAddresses(storage)
  let n = 0
  let state = initial
  const seen: PayoutEvent[] = []
  const effects = createPayoutEffects(
    {
      config: opts.config ?? config,
      partner: opts.partner,
      source,
      store,
      references: referenceStore(storage, now, opts.name),
      spent,
      pending: pendingStore(undefined, opts.name),
      calls: opts.calls ?? bankCalls,
      clock,
      identity: noIdentity(opts.forget),
      loadChainActions: async () => w.actions,
      discover: (onChange) => (opts.wallets?.length ? onChange(opts.wallets) : undefined, () => {}),
      providerOf: () => ({ request: async () => null }),
      newReference: opts.newReference ?? (() => `po_${++n}`),
      ...opts.deps,
    },
    (event) => dispatch(event),
  )
  function dispatch(event: PayoutEvent) {
    seen.push(event)
    const next = transition(state, event, c)
    if (next === state) return
    state = next
    effects.run(state)
  }
  const dispose = () => effects.dispose()
  disposers.push(dispose)
  effects.run(state)
  return { state: () => state, dispatch, dispose, seen, clock, store, spent, storage, sent: w.sent }
}
export type Driven = ReturnType<typeof drive>

/** At the funding step: chooses `chosen` among the wallets found and waits until it is connected as the buyer. */
export async function connectWallet(d: Pick<Driven, 'state' | 'dispatch'>, chosen: ChosenWallet = wallet) {
  await until(() => (d.state() as { connection?: { tag: string } }).connection?.tag === 'wallets', 'wallets')
  d.dispatch(toFunding({ type: 'WALLET', event: { type: 'CHOOSE', wallet: chosen } }))
  await until(() => (d.state() as { sender?: string }).sender === BUYER, 'connected')
}
