import { bankCalls } from '../../../../src/flows/payout/bank'
// Attack (reload race): the buyer clicks "Send", the wallet's confirmation is open, and the page
// reloads (a tap on reload, a crash, the partner's page navigating). Nothing was persisted before
// the prompt (effects.ts:237-242 writes the spent address and the hash only after
// eth_sendTransaction answers), so the reloaded widget resumes the payout at "funding" as if no
// prompt had ever been shown, and a second click asks the wallet again for the same single-use
// depositAddress. Browser wallets keep the first confirmation in their own queue after the page
// goes away; the buyer confirms both, and the second transfer to a spent address "leaves money
// without an order" (partner-api.md, Bank payout rule 3). The status check before the prompt does
// not help: the first transfer is not yet on chain, so the service still says `pending`.
// As a page runs once its first screen is up: the stored-record checks and the answers' schemas are here.
import '../../setup/afterFirstScreen'
import { afterEach, describe, expect, it } from 'vitest'
import type { PartnerHttp } from '../../../../src/api/partnerHttp'
import { parseOptions } from '../../../../src/config/config'
import { type ChainActions, createPayoutEffects } from '../../../../src/flows/payout/effects'
import { type Context, type PayoutEvent, type PayoutRecord, type PayoutState, initialState, transition } from '../../../../src/flows/payout/machine'
import { payoutStore, referenceStore, spentAddresses, pendingStore } from '../../../../src/flows/payout/persisted'
import { createFakeClock, settle, until } from '../../helpers/fakeClock'
import { memoryStorage } from '../../helpers/memoryStorage'

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const BUYER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const DEPOSIT = '0x1111111111111111111111111111111111111111'
const NOW = Date.parse('2026-11-24T10:00:00Z')
const source = { chainId: 8453, token: TOKEN, symbol: 'USDC', decimals: 6 }
const config = (() => {
  const parsed = parseOptions({ apiBase: 'http://127.0.0.1:8787', partnerBase: 'http://127.0.0.1:8787/partner', chains: [{ id: 8453, name: 'Base', rpcUrl: 'http://127.0.0.1:8545' }], sources: [source] })
  if (!parsed.ok) throw new Error(parsed.problem)
  return parsed.config
})()
const ctx: Context = { destination: 'bank', source, decimalMark: '.', emptyForm: () => ({ kind: 'fiat', amount: '', currency: 'EUR', country: '', rail: '' }) }
const record: PayoutRecord = {
  id: 'bp_1', depositAddress: DEPOSIT, depositAmount: '100', chain: 8453, expiresAt: new Date(NOW + 3_600_000).toISOString(),
  token: TOKEN, symbol: 'USDC', decimals: 6, fiatAmount: '91.50', fiatCurrency: 'EUR', rail: 'sepa_instant', settlement: 'instant', createdAt: NOW,
  // Fixture update (not a weakening): a payout record now carries its buyer and is resumed only for
  // that buyer (flows/resumeOtherWallet.test.tsx); this one is the `buyer` below's own payout.
  accountId: 'acc_1', wallet: BUYER,
}
const buyer = { accountId: 'acc_1', walletId: 'w_1', wallet: BUYER }
const wallet = { id: 'w|test', name: 'Test', rdns: 'test' }

// The service has not seen the first transfer yet (it is still in the wallet's queue / mempool).
const partner: PartnerHttp = { get: async () => ({}) as never, post: async () => ({ id: 'bp_1', status: 'pending' }) as never }

let disposers: Array<() => void> = []
afterEach(() => {
  for (const d of disposers) d()
  disposers = []
})

function page(storage: Storage, prompts: unknown[], answer: () => Promise<`0x${string}`>) {
  const actions: ChainActions = {
    connect: async () => BUYER,
    currentChainId: async () => 8453,
    ensureChain: async () => true,
    readClient: () => ({}) as never,
    // Fixture: the first transfer is still in the wallet's queue, so the single-use address holds
    // nothing on chain yet (as the service's `pending` below says); the buyer's wallet holds plenty.
    // (A balance at the address would rightly send the reloaded page to following, never to sending.)
    tokenBalance: async (_client, _token, owner) => (owner.toLowerCase() === DEPOSIT ? 0n : 10n ** 12n),
    nativeBalance: async () => 10n ** 18n,
    send: async (_p, _c, _a, tx) => {
      prompts.push(tx)
      return answer()
    },
  }
  const store = payoutStore(storage)
  // As PayoutFlow.tsx builds its first state on (re)load.
  let state = initialState({ record: store.load(), buyer, identity: { tag: 'wallet', form: {} as never } }, ctx)
  const effects = createPayoutEffects(
    {
      config, partner, source, store, references: referenceStore(storage), spent: spentAddresses(storage), pending: pendingStore(undefined), calls: bankCalls, clock: createFakeClock(NOW),
      identity: { api: {} as never, accounts: { load: () => undefined, save: () => {}, clear: () => {}, forget: () => {} }, usedCodes: { add: () => {} } },
      loadChainActions: async () => actions,
      discover: (onChange) => (onChange([wallet]), () => {}),
      providerOf: () => ({ request: async () => null }),
    },
    (event) => dispatch(event),
  )
  function dispatch(event: PayoutEvent) {
    const next = transition(state, event, ctx)
    if (next === state) return
    state = next
    effects.run(state)
  }
  effects.run(state)
  const dispose = () => effects.dispose()
  disposers.push(dispose)
  return { state: () => state as PayoutState, dispatch, dispose }
}

async function clickSend(p: ReturnType<typeof page>) {
  await until(() => !!(p.state() as { wallets?: unknown[] }).wallets, 'wallets')
  p.dispatch({ type: 'CONNECT', wallet })
  await until(() => (p.state() as { sender?: string }).sender === BUYER, 'connected')
  p.dispatch({ type: 'CONFIRM', now: NOW })
}

describe('attack: reload while the wallet prompt is open', () => {
  it('the reloaded page must not ask the wallet for a second transfer to the same single-use address', async () => {
    const storage = memoryStorage()
    payoutStore(storage).save(record)
    const prompts: unknown[] = []
    // First page: the prompt opens and stays open (the buyer has not answered yet).
    const first = page(storage, prompts, () => new Promise<never>(() => {}))
    await clickSend(first)
    await until(() => prompts.length === 1, 'the first prompt')
    expect(first.state()).toMatchObject({ tag: 'funding', work: 'sending' })
    // The page reloads: the wallet's queue still holds the first confirmation.
    first.dispose()
    const second = page(storage, prompts, async () => `0x${'cd'.repeat(32)}`)
    expect(second.state().tag).toBe('funding')
    await clickSend(second)
    await settle(20)
    // A second prompt for the same address, with nothing said about the first one still open.
    expect(prompts).toHaveLength(1)
  })
})
