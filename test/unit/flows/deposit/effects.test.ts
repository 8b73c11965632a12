// The deposit's effects with a fake clock, a fake service and a fake chain and wallet: every
// retry, backoff, expiry and drop path, in milliseconds of real time.
// As a page runs once its first screen is up: the stored-record checks and the answers' schemas are here.
import '../../setup/afterFirstScreen'
import '../../../../src/polling/pollStatus'
import type { Hex } from 'viem'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, NoRoute } from '../../../../src/errors/ApiError'
import { describeError } from '../../../../src/errors/describeError'
import type { DepositState, Preview } from '../../../../src/flows/deposit/machine'
import { expectNextPollAfter, until } from '../../helpers/fakeClock'
import { inTurn } from '../../helpers/fakeApi'
import { BUYER, hashOf, never } from '../../helpers/fakeChain'
import {
  type DepositDriver,
  type DepositWorld,
  START,
  depositConfig,
  depositQuote,
  depositWorld,
  driveDeposit,
  endDepositWorld,
  form,
  quotedDeposit,
  safePreview,
  sessionOf,
  trackingOf,
} from '../../helpers/deposit'
import { fakeLocks } from '../../helpers/fakeLocks'
import { depositStore } from '../../../../src/flows/deposit/persisted'
import { memoryStorage } from '../../helpers/memoryStorage'
import { scopedStorage } from '../../../../src/storage/safeStorage'

const timings = { pollMs: 1_000, dropCheckMs: 500, kycRecheckMs: 1_000, bankPollMs: 1_000, backoffBaseMs: 100 }
const config = { ...depositConfig, timings }
const safe = safePreview

// Made afresh for each test, in beforeEach.
let { clock, target, announced, chain, api } = {} as DepositWorld
let driver: DepositDriver | undefined
const session = () => sessionOf(announced.wallet)

beforeEach(() => {
  ;({ clock, target, announced, chain, api } = depositWorld())
})

afterEach(() => {
  endDepositWorld(driver, announced)
  driver = undefined
})

function drive(start: DepositState) {
  driver = driveDeposit(start, { config, api, target, clock, loadChainActions: chain.load })
  return driver
}
const quoting = (): DepositState => ({ tag: 'quoting', form, session: session(), amount: '25.5', requote: false })
const atQuote = (quote = depositQuote(START), preview: Preview | null = safe): DepositState => quotedDeposit(session(), quote, preview)
const following = (phase: 'confirming' | 'delivering' | 'batching', txHash: string = hashOf(0xd0), extra = {}): DepositState => ({
  tag: 'tracking',
  tracking: trackingOf(txHash, announced.wallet.rdns, extra),
  phase,
  attempt: 0,
})
const last = <T extends string>(d: DepositDriver, type: T) => d.events.filter((e) => e.type === type).at(-1)

describe('wallets', () => {
  it('lists a wallet as it answers the scan, and connects the one chosen', async () => {
    const d = drive({ tag: 'discovering', form })
    expect(d.state()).toMatchObject({ tag: 'wallets', wallets: [announced.wallet] })
    d.dispatch({ type: 'WALLET', event: { type: 'CHOOSE', wallet: { kind: 'injected', ...announced.wallet } } })
    await until(() => d.state().tag === 'form', 'CONNECTED')
    expect(d.state()).toMatchObject({ tag: 'form', session: { account: BUYER } })
  })

  it('with no wallet answering, the (empty) list comes 400 ms after the scan', async () => {
    announced.stop()
    const d = drive({ tag: 'discovering', form })
    await clock.advance(399)
    expect(d.state().tag).toBe('discovering')
    await clock.advance(1)
    expect(d.state()).toEqual({ tag: 'wallets', form, wallets: [], problem: undefined })
  })

  it('a wallet that refuses to connect is named as such', async () => {
    chain.actions.connect.mockRejectedValue(Object.assign(new Error('no'), { code: 4001 }))
    const d = drive({ tag: 'connecting', form, wallets: [announced.wallet], wallet: { kind: 'injected', ...announced.wallet } })
    await until(() => d.types().includes('WALLET'))
    expect(last(d, 'WALLET')).toEqual({ type: 'WALLET', event: { type: 'REFUSED', problem: 'rejected' } })
  })
})

describe('quote', () => {
  it('a quote arrives as QUOTED at the time it came, with the buyer as source', async () => {
    api.answer('/deposit/quote', () => depositQuote(START))
    const d = drive(quoting())
    await until(() => d.state().tag === 'quote', 'QUOTED')
    expect(last(d, 'QUOTED')).toEqual({ type: 'QUOTED', quote: depositQuote(START), at: START, stale: undefined })
    expect(api.to('/deposit/quote')[0]).toMatchObject({
      body: { source: { chainId: 8453, address: BUYER }, amount: '25.5', method: 'crypto' },
      priority: 'user',
    })
  })

  it('a failed quote is QUOTE_FAILED with the words for it, and is not asked again', async () => {
    const error = new NoRoute(400, 'no_route', 'nothing routes this')
    api.answer('/deposit/quote', inTurn(error))
    const d = drive(quoting())
    await until(() => d.state().tag === 'form', 'QUOTE_FAILED')
    expect(last(d, 'QUOTE_FAILED')).toEqual({ type: 'QUOTE_FAILED', problem: describeError(error) })
    expect(describeError(error).key).toBe('quote.noRoute')
    await clock.advance(600_000)
    expect(api.to('/deposit/quote')).toHaveLength(1)
  })

  it('expires at expiresAt exactly, then prices again (refreshed) while the buyer is idle', async () => {
    api.answer('/deposit/quote', (_c, nth) => depositQuote(clock.now(), 60_000 + nth))
    const d = drive(quoting())
    await until(() => d.state().tag === 'quote', 'QUOTED')
    await clock.advance(59_999)
    expect(d.types()).not.toContain('EXPIRED')
    await clock.advance(1)
    expect(d.types()).toContain('EXPIRED')
    await until(() => api.to('/deposit/quote').length === 2, 'a second quote')
    await until(() => d.state().tag === 'quote')
    expect(d.state()).toMatchObject({ tag: 'quote', refreshed: true, quotedAt: START + 60_000 })
  })

  it.each([
    ['expired on arrival', -1_000, 'expired'],
    ['valid for more than an hour', 2 * 3_600_000, 'far'],
  ] as const)('a quote %s runs no timer and is never asked again on its own', async (_name, ttl, stale) => {
    api.answer('/deposit/quote', () => depositQuote(START, ttl))
    const d = drive(quoting())
    await until(() => d.state().tag === 'quote', 'QUOTED')
    expect(d.state()).toMatchObject({ stale })
    expect(clock.pending()).toBe(0)
    await clock.advance(3 * 3_600_000)
    expect(api.to('/deposit/quote')).toHaveLength(1)
    expect(d.types()).not.toContain('EXPIRED')
  })

  it('a quote the guard refuses is never shown, and never simulated', async () => {
    api.answer('/deposit/quote', () => depositQuote(START))
    chain.actions.guardQuote.mockReturnValue({ ok: false, rule: 'target' })
    const d = drive(quoting())
    await until(() => d.state().tag === 'form', 'QUOTE_REJECTED')
    expect(last(d, 'QUOTE_REJECTED')).toEqual({ type: 'QUOTE_REJECTED', rejection: { rule: 'target' } })
    expect(chain.actions.simulate).not.toHaveBeenCalled()
  })

  it('the preview simulates the calls and shows what leaves the wallet', async () => {
    const d = drive(atQuote(depositQuote(START), null))
    await until(() => d.types().includes('PREVIEW'))
    expect(last(d, 'PREVIEW')).toEqual({
      type: 'PREVIEW',
      preview: { kind: 'ready', safe: true, outflow: [{ amount: '25.5', symbol: 'USDC' }], fee: '0.000000000000021', feeSymbol: 'ETH' },
    })
    expect(chain.prompts).toEqual([])
  })

  it('a preview whose chain cannot be asked is unavailable (and nothing is sent)', async () => {
    chain.actions.simulate.mockRejectedValue(new Error('rpc down'))
    const d = drive(atQuote(depositQuote(START), null))
    await until(() => d.types().includes('PREVIEW'))
    expect(last(d, 'PREVIEW')).toEqual({ type: 'PREVIEW', preview: { kind: 'unavailable' } })
  })
})

describe('send', () => {
  it('checks, sends once, saves the deposit before telling the machine, then follows it', async () => {
    const d = drive(atQuote())
    d.store.save = vi.fn(d.store.save)
    d.dispatch({ type: 'CONFIRM' })
    await until(() => d.state().tag === 'tracking', 'SENT')
    expect(chain.prompts).toEqual(['send'])
    expect(d.types().slice(0, 4)).toEqual(['CONFIRM', 'WORK', 'WORK', 'SENT'])
    expect(d.events.filter((e) => e.type === 'WORK').map((e) => (e as { work: string }).work)).toEqual(['checking', 'sending'])
    expect(vi.mocked(d.store.save).mock.invocationCallOrder[0]).toBeLessThan(chain.actions.sentTransaction.mock.invocationCallOrder[0])
    expect(d.store.load()).toMatchObject({ txHash: hashOf(1), walletRdns: announced.wallet.rdns, createdAt: START })
  })

  it('approval first when the allowance is short, waiting for its receipt, then the deposit', async () => {
    const d = drive(atQuote(depositQuote(START, 60_000, { approval: true })))
    d.dispatch({ type: 'CONFIRM' })
    await until(() => d.state().tag === 'tracking', 'SENT')
    expect(chain.prompts).toEqual(['approve', 'send'])
    expect(d.events.filter((e) => e.type === 'WORK').map((e) => (e as { work: string }).work)).toEqual([
      'checking',
      'approving',
      'approvalConfirming',
      'sending',
    ])
  })

  it("the wait for the approval's receipt stops when the widget goes, and the deposit is never asked for", async () => {
    chain.actions.waitReceipt.mockImplementation((_r, _h, _on, _s, signal) => never(signal))
    const d = drive(atQuote(depositQuote(START, 60_000, { approval: true })))
    d.dispatch({ type: 'CONFIRM' })
    await until(() => chain.actions.waitReceipt.mock.calls.length === 1, 'the approval receipt wait')
    const asked = chain.actions.waitReceipt.mock.calls[0][4]
    expect(asked?.aborted).toBe(false)
    d.dispose()
    driver = undefined
    expect(asked?.aborted).toBe(true)
    await clock.advance(10_000)
    expect(chain.prompts).toEqual(['approve'])
  })

  it('a send the wallet refuses is BLOCKED and never retried on its own', async () => {
    chain.actions.send.mockRejectedValue(Object.assign(new Error('User rejected'), { code: 4001 }))
    const d = drive(atQuote())
    d.dispatch({ type: 'CONFIRM' })
    await until(() => d.types().includes('BLOCKED'))
    expect(d.state()).toMatchObject({ tag: 'quote', work: 'idle', notice: { kind: 'wallet', problem: 'rejected' } })
    await clock.advance(50_000)
    expect(chain.actions.send).toHaveBeenCalledTimes(1)
  })

  it('a wallet on the wrong chain that will not switch is BLOCKED before any signature', async () => {
    chain.actions.currentChainId.mockResolvedValue(1)
    chain.actions.ensureChain.mockResolvedValue(false)
    const d = drive(atQuote())
    d.dispatch({ type: 'CONFIRM' })
    await until(() => d.types().includes('BLOCKED'))
    expect(d.state()).toMatchObject({ tag: 'quote', work: 'idle', notice: { kind: 'wrongChain' } })
    expect(chain.actions.send).not.toHaveBeenCalled()
    expect(chain.actions.tokenBalance).not.toHaveBeenCalled()
  })

  it('a wallet switched away between the checks and the prompt is BLOCKED (wrong chain), nothing signed', async () => {
    chain.actions.currentChainId.mockResolvedValueOnce(8453).mockResolvedValue(1)
    const d = drive(atQuote())
    d.dispatch({ type: 'CONFIRM' })
    await until(() => d.types().includes('BLOCKED'))
    expect(last(d, 'BLOCKED')).toEqual({ type: 'BLOCKED', notice: { kind: 'wrongChain' } })
    expect(chain.prompts).toEqual([])
  })

  it('a quote that expires while the approval confirms is BLOCKED then EXPIRED: priced again, the deposit never sent', async () => {
    chain.actions.waitReceipt.mockImplementationOnce(
      (_r, hash) => new Promise((resolve) => clock.setTimeout(() => resolve({ success: true, txHash: hash, logs: [] }), 61_000)),
    )
    api.answer('/deposit/quote', () => depositQuote(clock.now()))
    const d = drive(atQuote(depositQuote(START, 60_000, { approval: true })))
    d.dispatch({ type: 'CONFIRM' })
    await until(() => chain.prompts.length === 1, 'the approval')
    await clock.advance(61_000)
    await until(() => {
      const s = d.state()
      return s.tag === 'quote' && s.quotedAt !== START
    }, 'a new price')
    const types = d.types()
    expect(types.slice(types.lastIndexOf('BLOCKED'), types.lastIndexOf('QUOTED') + 1)).toEqual(['BLOCKED', 'EXPIRED', 'QUOTED'])
    expect(last(d, 'BLOCKED')).toEqual({ type: 'BLOCKED' })
    expect(chain.prompts).toEqual(['approve'])
    expect(d.state()).toMatchObject({ tag: 'quote', work: 'idle', refreshed: true })
  })

  it('a balance below the amount is BLOCKED with the balance, before any prompt', async () => {
    chain.actions.tokenBalance.mockResolvedValue(1_000_000n)
    const d = drive(atQuote())
    d.dispatch({ type: 'CONFIRM' })
    await until(() => d.types().includes('BLOCKED'))
    expect(last(d, 'BLOCKED')).toEqual({ type: 'BLOCKED', notice: { kind: 'insufficient', balance: '1' } })
    expect(chain.prompts).toEqual([])
  })

  it('another tab sending at the same time: this one is BLOCKED (elsewhere)', async () => {
    const locks = fakeLocks()
    locks.install()
    const store = depositStore(scopedStorage(memoryStorage(), { partner: 'acme-shop', apiBase: config.apiBase }))
    locks.holdElsewhere(`${store.key}:send`)
    driver = driveDeposit(atQuote(), { config, api, target, clock, loadChainActions: chain.load, store })
    const d = driver
    d.dispatch({ type: 'CONFIRM' })
    await until(() => d.types().includes('BLOCKED'))
    expect(last(d, 'BLOCKED')).toEqual({ type: 'BLOCKED', notice: { kind: 'elsewhere' } })
    expect(chain.actions.send).not.toHaveBeenCalled()
  })

  it("another partner's tab sending on this origin holds this one up in nothing: its lock is its own", async () => {
    const locks = fakeLocks()
    locks.install()
    const theirs = depositStore(scopedStorage(memoryStorage(), { partner: 'other-shop', apiBase: config.apiBase }))
    locks.holdElsewhere(`${theirs.key}:send`)
    locks.holdElsewhere('stablecoin-widget:deposit:send')
    const store = depositStore(scopedStorage(memoryStorage(), { partner: 'acme-shop', apiBase: config.apiBase }))
    driver = driveDeposit(atQuote(), { config, api, target, clock, loadChainActions: chain.load, store })
    const d = driver
    d.dispatch({ type: 'CONFIRM' })
    await until(() => chain.prompts.length > 0 || d.types().includes('BLOCKED'), 'a prompt')
    expect(d.types()).not.toContain('BLOCKED')
    expect(chain.prompts.length).toBeGreaterThan(0)
  })

  it('another tab sent and let go of the lock before this one confirmed, and its storage event is not here yet: this tab follows that deposit and sends nothing', async () => {
    const store = depositStore(memoryStorage())
    driver = driveDeposit(atQuote(), { config, api, target, clock, loadChainActions: chain.load, store })
    const d = driver
    // The other tab's record, written before this tab's confirm (its event comes later, or never).
    store.save(trackingOf(hashOf(0xb0), announced.wallet.rdns))
    d.dispatch({ type: 'CONFIRM' })
    await until(() => d.types().includes('ADOPT') || d.types().includes('BLOCKED') || chain.prompts.length > 0, 'ADOPT')
    expect(d.types()).toContain('ADOPT')
    expect(chain.prompts).toEqual([])
    expect(chain.actions.send).not.toHaveBeenCalled()
  })

  it('with a wallet that batches (EIP-5792): one prompt, SENT with the batch id, then BATCHED with both hashes', async () => {
    chain.actions.canBatch.mockResolvedValue(true)
    chain.actions.batchStatus.mockResolvedValueOnce({ status: 'pending' }).mockResolvedValue({ status: 'success', hashes: [hashOf(0xa1), hashOf(0xa2)] })
    chain.actions.waitReceipt.mockImplementation((_r, _h, _o, _s, signal) => never(signal))
    const d = drive(atQuote(depositQuote(START, 60_000, { approval: true })))
    d.dispatch({ type: 'CONFIRM' })
    await until(() => d.state().tag === 'tracking', 'SENT')
    expect(chain.prompts).toEqual(['batch'])
    expect(d.state()).toMatchObject({ phase: 'batching', tracking: { txHash: '', callsId: 'batch-1' } })
    expect(d.store.load()).toMatchObject({ callsId: 'batch-1' })
    await until(() => chain.actions.batchStatus.mock.calls.length === 1)
    expect(d.types()).not.toContain('BATCHED')
    await clock.advance(1_000)
    await until(() => d.types().includes('BATCHED'))
    expect(last(d, 'BATCHED')).toEqual({ type: 'BATCHED', txHash: hashOf(0xa2), approvalHash: hashOf(0xa1) })
    expect(d.state()).toMatchObject({ phase: 'confirming', tracking: { txHash: hashOf(0xa2) } })
    expect(d.store.load()).toMatchObject({ txHash: hashOf(0xa2), approvalHash: hashOf(0xa1) })
  })
})

describe('following the batch', () => {
  it('a batch that failed is BATCH_FAILED (reverted): the result says so', async () => {
    chain.actions.batchStatus.mockResolvedValue({ status: 'failure', reverted: true })
    const d = drive(following('batching', '', { callsId: 'batch-9' }))
    await until(() => d.state().tag === 'result')
    expect(d.state()).toMatchObject({ tag: 'result', outcome: 'reverted' })
  })

  it('a wallet that cannot be asked is WAITING, asked again every 2 s', async () => {
    chain.actions.batchStatus.mockRejectedValueOnce(new Error('busy')).mockResolvedValue({ status: 'failure', reverted: false })
    const d = drive(following('batching', '', { callsId: 'batch-9' }))
    await until(() => d.types().includes('WAITING'))
    await clock.advance(1_999)
    expect(chain.actions.batchStatus).toHaveBeenCalledTimes(1)
    await clock.advance(1)
    await until(() => d.state().tag === 'result')
    expect(d.state()).toMatchObject({ tag: 'result', outcome: 'dropped' })
  })
})

describe('receipt', () => {
  it('a receipt is RECEIPT: then the status is polled', async () => {
    api.answer('/deposit/status', () => ({ status: 'pending' }))
    const d = drive(following('confirming'))
    await until(() => d.types().includes('RECEIPT'))
    expect(d.state()).toMatchObject({ phase: 'delivering' })
    await until(() => api.to('/deposit/status').length === 1, 'the status poll')
    expect(api.to('/deposit/status')[0]).toMatchObject({ body: { provider: 'relay', receipt: { txHash: hashOf(0xd0), logs: [] } }, priority: 'poll' })
  })

  it('a reverted receipt ends the deposit as reverted', async () => {
    chain.actions.waitReceipt.mockImplementation(async (_r, hash) => ({ success: false, txHash: hash, logs: [] }))
    const d = drive(following('confirming'))
    await until(() => d.state().tag === 'result')
    expect(d.state()).toMatchObject({ tag: 'result', outcome: 'reverted' })
  })

  it('trouble reading the receipt is WAITING, and read again after 3 s', async () => {
    chain.actions.waitReceipt.mockRejectedValueOnce(new Error('rpc down'))
    const d = drive(following('confirming'))
    await until(() => d.types().includes('WAITING'))
    expect(d.state()).toMatchObject({ waiting: true })
    await clock.advance(2_999)
    expect(d.types()).not.toContain('RECEIPT')
    await clock.advance(1)
    await until(() => d.types().includes('RECEIPT'))
    expect(d.state()).toMatchObject({ phase: 'delivering', waiting: false })
  })

  it('a transaction the chain stops knowing is MISSING after two misses, one drop check (config.timings.dropCheckMs) apart', async () => {
    chain.actions.waitReceipt.mockImplementation((_r, _h, _o, _s, signal) => never(signal))
    chain.actions.sentTransaction.mockResolvedValue(undefined)
    const d = drive(following('confirming'))
    await until(() => chain.actions.waitReceipt.mock.calls.length === 1)
    await clock.advance(499)
    expect(d.types()).not.toContain('MISSING')
    await clock.advance(1)
    expect(last(d, 'MISSING')).toEqual({ type: 'MISSING', missing: false })
    await clock.advance(500)
    expect(last(d, 'MISSING')).toEqual({ type: 'MISSING', missing: true })
    expect(d.state()).toMatchObject({ missing: true })
    d.dispatch({ type: 'STOP_FOLLOWING' })
    expect(d.state()).toMatchObject({ tag: 'result', outcome: 'dropped' })
    expect(chain.actions.send).not.toHaveBeenCalled()
  })

  it('a transaction seen again clears the miss count', async () => {
    chain.actions.waitReceipt.mockImplementation((_r, _h, _o, _s, signal) => never(signal))
    chain.actions.sentTransaction
      .mockResolvedValueOnce(undefined)
      .mockResolvedValueOnce({ from: BUYER as Hex, nonce: 1 })
      .mockResolvedValue(undefined)
    const d = drive(following('confirming'))
    await until(() => chain.actions.waitReceipt.mock.calls.length === 1)
    await clock.advance(1_500)
    expect(d.events.filter((e) => e.type === 'MISSING')).toEqual([
      { type: 'MISSING', missing: false },
      { type: 'MISSING', missing: false },
      { type: 'MISSING', missing: false },
    ])
    await clock.advance(500)
    expect(last(d, 'MISSING')).toEqual({ type: 'MISSING', missing: true })
  })
})

describe('status', () => {
  it('polls every config.timings.pollMs until a final status, then clears the saved deposit', async () => {
    api.answer('/deposit/status', inTurn({ status: 'pending' }, { status: 'pending' }, { status: 'done', txHashes: { delivered: hashOf(0xee) } }))
    const d = drive(following('confirming'))
    await until(() => api.to('/deposit/status').length === 1, 'the first poll')
    expect(d.store.load()).toBeDefined()
    await expectNextPollAfter(clock, () => api.to('/deposit/status').length, 1_000)
    await clock.advance(1_000)
    await until(() => d.state().tag === 'result')
    expect(d.state()).toMatchObject({ tag: 'result', outcome: 'done', tracking: { deliveredHash: hashOf(0xee) } })
    expect(d.store.load()).toBeUndefined()
    await clock.advance(10_000)
    expect(api.to('/deposit/status')).toHaveLength(3)
  })

  it('retryable trouble (a 502) is WAITING, then the status arrives', async () => {
    api.answer('/deposit/status', inTurn(new ApiError(502, 'upstream_error', 'bad gateway'), { status: 'pending' }))
    const d = drive(following('confirming', hashOf(0xd1)))
    await until(() => {
      const s = d.state()
      return s.tag === 'tracking' && !!s.waiting
    }, 'WAITING')
    await clock.advance(10_000)
    await until(() => d.types().includes('TRACK'))
    expect(d.state()).toMatchObject({ phase: 'delivering', waiting: false })
    expect(d.types()).not.toContain('TRACK_ERROR')
  })

  it('a 4xx is TRACK_ERROR with its words and stops; RETRY polls again under a new attempt', async () => {
    const error = new ApiError(400, 'invalid_request', 'receipt.txHash: unknown')
    api.answer('/deposit/status', inTurn(error, { status: 'done' }))
    const d = drive(following('confirming', hashOf(0xd2)))
    await until(() => d.types().includes('TRACK_ERROR'))
    expect(last(d, 'TRACK_ERROR')).toEqual({ type: 'TRACK_ERROR', problem: describeError(error) })
    await clock.advance(60_000)
    expect(api.to('/deposit/status')).toHaveLength(1)
    d.dispatch({ type: 'RETRY' })
    expect(d.state()).toMatchObject({ attempt: 1, problem: undefined })
    await until(() => d.state().tag === 'result', 'the status after RETRY')
    expect(api.to('/deposit/status')).toHaveLength(2)
  })

  it('a deposit adopted without a receipt in memory reads its receipt first', async () => {
    api.answer('/deposit/status', () => ({ status: 'pending' }))
    const d = drive(following('delivering', hashOf(0xd3)))
    await until(() => api.to('/deposit/status').length === 1, 'the first poll')
    expect(chain.actions.waitReceipt).toHaveBeenCalledTimes(1)
    expect(d.types()).toContain('TRACK')
  })

  it('that receipt read stops when the widget goes: the chain is not read after an unmount', async () => {
    chain.actions.waitReceipt.mockImplementation((_r, _h, _on, _s, signal) => never(signal))
    const d = drive(following('delivering', hashOf(0xd5)))
    await until(() => chain.actions.waitReceipt.mock.calls.length === 1, 'the receipt read')
    const asked = chain.actions.waitReceipt.mock.calls[0][4]
    const reader = (chain.actions.readClient.mock.calls.at(-1) as unknown[] | undefined)?.[2] as AbortSignal | undefined
    expect([asked?.aborted, reader?.aborted]).toEqual([false, false])
    d.dispose()
    driver = undefined
    expect([asked?.aborted, reader?.aborted]).toEqual([true, true])
    expect(api.to('/deposit/status')).toHaveLength(0)
  })
})

describe('tabs', () => {
  it('another tab following the deposit: ELSEWHERE, and no chain read here until it lets go', async () => {
    const locks = fakeLocks()
    locks.install()
    const letGo = locks.holdElsewhere(`stablecoin-widget:deposit:${hashOf(0xd4)}`)
    const d = drive(following('confirming', hashOf(0xd4)))
    await until(() => d.types().includes('ELSEWHERE'))
    expect(d.state()).toMatchObject({ tab: 'elsewhere' })
    expect(chain.actions.waitReceipt).not.toHaveBeenCalled()
    letGo()
    await until(() => d.types().includes('RECEIPT'), 'RECEIPT once this tab holds the lock')
    expect(d.events.filter((e) => e.type === 'ELSEWHERE')).toEqual([
      { type: 'ELSEWHERE', tab: 'elsewhere' },
      { type: 'ELSEWHERE', tab: 'held' },
    ])
  })

  it('a deposit another tab saved is adopted here (storage event)', async () => {
    const d = drive({ tag: 'form', form, session: session() })
    d.store.save(trackingOf(hashOf(0xd5)))
    target.dispatchEvent(Object.assign(new Event('storage'), { key: d.store.key, newValue: 'x' }))
    expect(d.state()).toMatchObject({ tag: 'tracking', tracking: { txHash: hashOf(0xd5) } })
  })
})
