// Two tabs on one payout (from an attacker's review): tab A shows the pay-by-address request (OFFER,
// offeredAt kept); the buyer pays it from an exchange (not mined yet). Tab B, opened before, has the
// wallet connected and still holds the record without offeredAt: its Send must wait for the buyer's
// word too, and a stale tab's offer must never erase the mark another tab kept before its prompt.
import '../../setup/afterFirstScreen'
import { describe, expect, it } from 'vitest'
import type { PartnerHttp } from '../../../../src/api/partnerHttp'
import { type PayoutState, initialState } from '../../../../src/flows/payout/machine'
import { payoutStore } from '../../../../src/flows/payout/persisted'
import { settle, until } from '../../helpers/fakeClock'
import { memoryStorage } from '../../helpers/memoryStorage'
import { NOW, buyer, connectWallet, ctx, drive, fakePartner, fakeWallet, recordOf, toFunding, wallet } from '../../helpers/payout'

const record = recordOf({ depositAmount: '100', expiresAt: new Date(NOW + 3_600_000).toISOString(), fiatAmount: '91.50' })
const partner: PartnerHttp = { get: async () => ({}) as never, post: async () => ({ id: 'bp_1', status: 'pending' }) as never }

function page(storage: Storage, prompts: unknown[], wallets: boolean) {
  const chain = fakeWallet({ balance: 10n ** 12n, sent: prompts })
  const start = initialState(
    { record: payoutStore(storage).load(), buyer, identity: { tag: 'wallet', form: {} as never, connection: { tag: 'discovering' } } },
    ctx,
  )
  const d = drive(start, { partner, storage, wallet: chain, wallets: wallets ? [wallet] : [] })
  return { state: () => d.state() as PayoutState, dispatch: d.dispatch, dispose: d.dispose }
}

describe('offered in one tab, sent from another', () => {
  it('tab B must not send without the buyer’s word once tab A offered the payout by address', async () => {
    const storage = memoryStorage()
    payoutStore(storage).save(record)
    const prompts: unknown[] = []
    const tabB = page(storage, prompts, true) // opened first, wallet present
    await connectWallet(tabB)
    const tabA = page(storage, prompts, false) // no wallet here
    tabA.dispatch(toFunding({ type: 'OFFER', now: NOW }))
    await settle()
    expect(payoutStore(storage).load()?.offeredAt).toBe(NOW) // kept, as the commit intends
    // The buyer pays the request from an exchange (not mined yet), then presses Send in tab B.
    tabB.dispatch(toFunding({ type: 'CONFIRM', now: NOW }))
    await settle()
    await new Promise((r) => setTimeout(r, 50))
    expect(prompts).toHaveLength(0)
    // Tab B now knows the offer: idle, and it sends on the buyer's word, once.
    expect(tabB.state()).toMatchObject({ tag: 'funding', work: 'idle', record: { offeredAt: NOW } })
    tabB.dispatch(toFunding({ type: 'CONFIRM', now: NOW, confirmed: true }))
    await until(() => prompts.length === 1, 'the send on the buyer’s word')
  })

  it('an OFFER in a stale tab must not erase the mark another tab kept before its prompt', async () => {
    const storage = memoryStorage()
    payoutStore(storage).save(record)
    const prompts: unknown[] = []
    const tabA = page(storage, prompts, false) // no wallet, loaded first
    const chain = fakeWallet({ balance: 10n ** 12n, sent: prompts, answer: () => new Promise<never>(() => {}) })
    const start = initialState(
      { record: payoutStore(storage).load(), buyer, identity: { tag: 'wallet', form: {} as never, connection: { tag: 'discovering' } } },
      ctx,
    )
    const tabB = drive(start, { partner, storage, wallet: chain, wallets: [wallet] })
    await connectWallet(tabB)
    tabB.dispatch(toFunding({ type: 'CONFIRM', now: NOW }))
    await until(() => prompts.length === 1, 'B prompt open')
    expect(payoutStore(storage).load()?.promptedAt).toBeDefined()
    tabA.dispatch(toFunding({ type: 'OFFER', now: NOW }))
    await settle()
    expect(payoutStore(storage).load()?.promptedAt).toBeDefined()
    // Tab A learns of the prompt instead of offering a second way to pay.
    expect(tabA.state()).toMatchObject({ tag: 'funding', record: { promptedAt: expect.any(Number) } })
    expect((tabA.state() as { record: { offeredAt?: number } }).record.offeredAt).toBeUndefined()
  })
})

// From a second attacker's review: marks compared by value, and read again right before the prompt.
describe('two tabs after an unanswered prompt, and an offer made while the other tab checks', () => {
  const prompted = recordOf({ depositAmount: '100', expiresAt: new Date(NOW + 3_600_000).toISOString(), fiatAmount: '91.50', promptedAt: NOW - 60_000 })
  function checkedPage(storage: Storage, prompts: unknown[], hang = false) {
    const chain = fakeWallet({ balance: 10n ** 12n, sent: prompts, ...(hang ? { answer: () => new Promise<never>(() => {}) } : {}) })
    const start = initialState(
      { record: payoutStore(storage).load(), buyer, identity: { tag: 'wallet', form: {} as never, connection: { tag: 'discovering' } } },
      ctx,
    )
    const d = drive(start, { partner: fakePartner({ '/bank/payout/status': [{ id: 'bp_1', status: 'pending' }] }), storage, wallet: chain, wallets: [wallet] })
    return { state: () => d.state() as PayoutState & { verify?: string }, dispatch: d.dispatch, dispose: d.dispose }
  }

  it('a tab never sends over another tab’s newer prompt: it takes it in and checks again', async () => {
    const storage = memoryStorage()
    payoutStore(storage).save(prompted)
    const promptsA: unknown[] = []
    const promptsB: unknown[] = []
    const tabA = checkedPage(storage, promptsA)
    const tabB = checkedPage(storage, promptsB, true)
    await connectWallet(tabA)
    await connectWallet(tabB)
    await until(() => tabA.state().verify === 'clear' && tabB.state().verify === 'clear', 'both checked')
    tabB.dispatch(toFunding({ type: 'CONFIRM', now: NOW, confirmed: true }))
    await until(() => promptsB.length === 1, 'B prompt open')
    tabB.dispose()
    await settle()
    tabA.dispatch(toFunding({ type: 'CONFIRM', now: NOW, confirmed: true }))
    await settle()
    await new Promise((r) => setTimeout(r, 50))
    expect(promptsA).toHaveLength(0)
    expect(tabA.state()).toMatchObject({ tag: 'funding', record: { promptedAt: payoutStore(storage).load()?.promptedAt } })
    expect(tabA.state().verify).not.toBe('clear')
  })

  it('an offer made while the other tab runs its checks survives, and that tab does not prompt without the word', async () => {
    const storage = memoryStorage()
    payoutStore(storage).save(record)
    let release = () => {}
    const gate = new Promise<void>((r) => (release = r))
    let statusCalls = 0
    const slow: PartnerHttp = {
      get: async () => ({}) as never,
      post: async () => {
        statusCalls++
        await gate
        return { id: 'bp_1', status: 'pending' } as never
      },
    }
    const prompts: unknown[] = []
    const mk = (p: PartnerHttp, wallets: boolean) => {
      const start = initialState(
        { record: payoutStore(storage).load(), buyer, identity: { tag: 'wallet', form: {} as never, connection: { tag: 'discovering' } } },
        ctx,
      )
      const d = drive(start, { partner: p, storage, wallet: fakeWallet({ balance: 10n ** 12n, sent: prompts }), wallets: wallets ? [wallet] : [] })
      return { state: () => d.state() as PayoutState, dispatch: d.dispatch }
    }
    const tabB = mk(slow, true)
    await connectWallet(tabB)
    const tabA = mk(partner, false)
    tabB.dispatch(toFunding({ type: 'CONFIRM', now: NOW }))
    await until(() => statusCalls > 0, 'B checking')
    tabA.dispatch(toFunding({ type: 'OFFER', now: NOW }))
    await settle()
    release()
    await settle()
    await new Promise((r) => setTimeout(r, 50))
    expect(prompts).toHaveLength(0)
    expect(payoutStore(storage).load()?.offeredAt).toBe(NOW)
    expect(tabB.state()).toMatchObject({ tag: 'funding', work: 'idle', record: { offeredAt: NOW } })
  })
})

describe('an offer in a tab that missed another tab’s send', () => {
  it('follows the hash the other tab kept, and offers nothing', async () => {
    const storage = memoryStorage()
    payoutStore(storage).save(record)
    const prompts: unknown[] = []
    const tabA = page(storage, prompts, false)
    payoutStore(storage).save({ ...record, promptedAt: NOW, txHash: `0x${'ab'.repeat(32)}`, sender: record.wallet })
    tabA.dispatch(toFunding({ type: 'OFFER', now: NOW }))
    await settle()
    expect(tabA.state()).toMatchObject({ tag: 'tracking', record: { txHash: `0x${'ab'.repeat(32)}` } })
    expect(payoutStore(storage).load()?.offeredAt).toBeUndefined()
  })
})
