// Issue 29: with a partner backend (partnerBase), the deposit tells the kit which transaction it
// sent (POST {partnerBase}/deposit/sent), once, after the send, in the background: never holding
// up, delaying or failing the deposit. Without a partner backend, no request at all.
import '../../setup/afterFirstScreen'
import '../../../../src/polling/pollStatus'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { WidgetConfig } from '../../../../src/config/config'
import type { DepositState, Tracking } from '../../../../src/flows/deposit/machine'
import { depositStore } from '../../../../src/flows/deposit/persisted'
import { until } from '../../helpers/fakeClock'
import { inTurn } from '../../helpers/fakeApi'
import { hashOf } from '../../helpers/fakeChain'
import {
  type DepositDriver,
  type DepositWorld,
  START,
  depositConfig,
  depositWorld,
  driveDeposit,
  endDepositWorld,
  quotedDeposit,
  sessionOf,
  trackingOf,
} from '../../helpers/deposit'
import { memoryStorage } from '../../helpers/memoryStorage'

// The report's chunk, fetched by the flow when a receipt is in: here already, as after its first fetch.
await import('../../../../src/flows/deposit/report')
// And the wallet link's, fetched before the first send where the partner has a backend.
await import('../../../../src/flows/deposit/linkWallet')

const timings = { pollMs: 1_000, dropCheckMs: 500, kycRecheckMs: 1_000, bankPollMs: 1_000, backoffBaseMs: 100 }
const PARTNER = 'https://shop.example.com/api'
const TOKEN = 'pt_buyer_session_token'
// A kit that reads crypto deposits (with chains) links wallets: its registry entry says so.
const withPartner = { ...depositConfig, timings, partnerBase: PARTNER, partnerToken: TOKEN, walletLink: true }
const withoutPartner = { ...depositConfig, timings }

type Sent = { url: string; auth: string | null; body: unknown; at: number }

// Made afresh for each test, in beforeEach.
let { clock, target, announced, chain, api } = {} as DepositWorld
let driver: DepositDriver | undefined
/** What reached the partner's backend, and how it answers (a status and a body, or an Error thrown by fetch). */
let sent: Sent[]
let kitAnswers: Array<{ status: number; body: unknown } | Error | 'hang'>

beforeEach(() => {
  ;({ clock, target, announced, chain, api } = depositWorld())
  sent = []
  kitAnswers = []
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    // The buyer's wallet is linked to this user already (linkWallet.test.ts asks the signature).
    if (String(input) === `${PARTNER}/deposit/wallet`) return Response.json({ linked: true })
    const headers = new Headers(init?.headers)
    sent.push({ url: String(input), auth: headers.get('Authorization'), body: init?.body ? JSON.parse(String(init.body)) : undefined, at: clock.now() })
    const answer = kitAnswers[Math.min(sent.length - 1, kitAnswers.length - 1)] ?? { status: 200, body: { id: 'dep_kit_1' } }
    if (answer === 'hang') return new Promise<Response>(() => {})
    if (answer instanceof Error) throw answer
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'Content-Type': 'application/json' } })
  })
})

afterEach(() => {
  endDepositWorld(driver, announced)
  driver = undefined
})

const session = () => sessionOf(announced.wallet)
const reports = () => sent.filter((s) => s.url === `${PARTNER}/deposit/sent`)
const following = (phase: 'confirming' | 'delivering', txHash: string = hashOf(0xd0), extra: Partial<Tracking> = {}): DepositState => ({
  tag: 'tracking',
  tracking: trackingOf(txHash, announced.wallet.rdns, extra),
  phase,
  attempt: 0,
})

function drive(start: DepositState, config: WidgetConfig = withPartner, store = depositStore(memoryStorage())) {
  driver = driveDeposit(start, { config, api, target, clock, loadChainActions: chain.load, store })
  return driver
}

describe('the report to the kit', () => {
  it('is sent once the buyer has sent: after the wallet prompt and the receipt, never before, with the token and the three ids', async () => {
    api.answer('/deposit/status', () => ({ status: 'pending' }))
    let receipt!: () => void
    chain.actions.waitReceipt.mockImplementation((_r, hash) => new Promise((resolve) => (receipt = () => resolve({ success: true, txHash: hash, logs: [] }))))
    const d = drive(quotedDeposit(session()))
    d.dispatch({ type: 'CONFIRM' })
    await until(() => d.state().tag === 'tracking', 'SENT')
    expect(chain.prompts).toEqual(['send'])
    await clock.advance(5_000)
    // Sent, not mined: the kit reads the receipt itself and would refuse it yet.
    expect(reports()).toEqual([])
    receipt()
    await until(() => reports().length === 1, 'the report')
    expect(reports()[0]).toMatchObject({ auth: `Bearer ${TOKEN}`, body: { provider: 'relay', txHash: hashOf(1), chainId: 8453 } })
    await until(() => (d.state() as { tracking?: Tracking }).tracking?.kit !== undefined, 'REPORTED')
    expect(d.state()).toMatchObject({ tag: 'tracking', tracking: { kit: { txHash: hashOf(1), id: 'dep_kit_1' } } })
    // Kept with the deposit: a reload knows the kit has it.
    expect(d.store.load()).toMatchObject({ txHash: hashOf(1), kit: { txHash: hashOf(1), id: 'dep_kit_1' } })
    await clock.advance(10_000)
    expect(api.to('/deposit/status').length).toBeGreaterThan(3)
    expect(reports()).toHaveLength(1)
  })

  it('is sent once however long the deposit is followed, and the result keeps the kit id', async () => {
    api.answer('/deposit/status', inTurn({ status: 'pending' }, { status: 'pending' }, { status: 'done', txHashes: { delivered: hashOf(0xee) } }))
    const d = drive(following('confirming'))
    await until(() => d.state().tag === 'tracking' && (d.state() as { tracking: Tracking }).tracking.kit !== undefined, 'REPORTED')
    await clock.advance(3_000)
    await until(() => d.state().tag === 'result')
    expect(d.state()).toMatchObject({ tag: 'result', outcome: 'done', tracking: { kit: { id: 'dep_kit_1' } } })
    expect(reports()).toHaveLength(1)
    expect(d.store.load()).toBeUndefined()
  })

  it('without a partner backend: no request at all, and the deposit ends as before', async () => {
    api.answer('/deposit/status', inTurn({ status: 'pending' }, { status: 'done', txHashes: { delivered: hashOf(0xee) } }))
    const d = drive(following('confirming'), withoutPartner)
    await until(() => d.types().includes('RECEIPT'))
    await clock.advance(5_000)
    await until(() => d.state().tag === 'result')
    expect(sent).toEqual([])
    expect(d.store.load()).toBeUndefined()
  })

  it('a reload after the kit answered does not tell it again; a reload before it did, does', async () => {
    api.answer('/deposit/status', () => ({ status: 'pending' }))
    const storage = memoryStorage()
    const told = trackingOf(hashOf(0xd0), announced.wallet.rdns, { kit: { txHash: hashOf(0xd0), id: 'dep_kit_0' } })
    depositStore(storage).save(told)
    const resumed = depositStore(storage).load()!
    expect(resumed.kit).toEqual({ txHash: hashOf(0xd0), id: 'dep_kit_0' })
    const d = drive({ tag: 'tracking', tracking: resumed, phase: 'confirming', attempt: 0 }, withPartner, depositStore(storage))
    await until(() => api.to('/deposit/status').length === 1, 'the status poll')
    await clock.advance(5_000)
    expect(reports()).toEqual([])
    d.dispose()

    const untold = memoryStorage()
    depositStore(untold).save(trackingOf(hashOf(0xd1), announced.wallet.rdns))
    drive({ tag: 'tracking', tracking: depositStore(untold).load()!, phase: 'confirming', attempt: 0 }, withPartner, depositStore(untold))
    await until(() => reports().length === 1, 'the report after the reload')
    expect(reports()[0].body).toEqual({ provider: 'relay', txHash: hashOf(0xd1), chainId: 8453 })
  })

  it('a kit answer for a replaced hash does not stand for the new one: the new hash is told', async () => {
    api.answer('/deposit/status', () => ({ status: 'pending' }))
    drive(following('delivering', hashOf(0xd2), { kit: { txHash: hashOf(0xd0), id: 'dep_kit_old' } }))
    await until(() => reports().length === 1, 'the report')
    expect(reports()[0].body).toMatchObject({ txHash: hashOf(0xd2) })
  })
})

describe('failures stay quiet', () => {
  it('trouble (a 502, then no answer at all) is tried again with a growing backoff; the deposit is followed meanwhile, untouched', async () => {
    kitAnswers = [
      { status: 502, body: { error: { code: 'chain_unreachable', message: 'down' } } },
      new TypeError('Failed to fetch'),
      { status: 200, body: { id: 'dep_kit_1' } },
    ]
    api.answer('/deposit/status', () => ({ status: 'pending' }))
    const d = drive(following('delivering'))
    await until(() => reports().length === 1, 'the first report')
    await clock.advance(99)
    expect(reports()).toHaveLength(1)
    await clock.advance(1)
    await until(() => reports().length === 2, 'the second report')
    await clock.advance(199)
    expect(reports()).toHaveLength(2)
    await clock.advance(1)
    await until(() => reports().length === 3, 'the third report')
    expect(reports().map((r) => r.at - START)).toEqual([0, 100, 300])
    await until(() => (d.state() as { tracking: Tracking }).tracking.kit?.id === 'dep_kit_1', 'REPORTED')
    expect(d.types()).not.toContain('TRACK_ERROR')
    expect(d.types()).not.toContain('WAITING')
    expect(d.state()).toMatchObject({ tag: 'tracking', phase: 'delivering' })
  })

  it('gives up after a few tries, and a refusal that asking again cannot change (404) is not asked again', async () => {
    kitAnswers = [{ status: 500, body: { error: { code: 'kit_error', message: 'x' } } }]
    api.answer('/deposit/status', () => ({ status: 'pending' }))
    drive(following('delivering'))
    await clock.advance(60_000)
    const tries = reports().length
    expect(tries).toBeGreaterThan(1)
    expect(tries).toBeLessThanOrEqual(5)
    driver!.dispose()

    sent = []
    kitAnswers = [{ status: 404, body: { error: { code: 'payment_not_found', message: 'no' } } }]
    drive(following('delivering', hashOf(0xd3)))
    await clock.advance(60_000)
    expect(reports()).toHaveLength(1)
  })

  it('a kit that never answers neither holds up nor fails the deposit; its record stays until the report ends, so a reload tells the kit', async () => {
    kitAnswers = ['hang']
    api.answer('/deposit/status', inTurn({ status: 'pending' }, { status: 'done', txHashes: { delivered: hashOf(0xee) } }))
    const storage = memoryStorage()
    const d = drive(following('confirming'), withPartner, depositStore(storage))
    await until(() => reports().length === 1, 'the report')
    await clock.advance(1_000)
    await until(() => d.state().tag === 'result', 'the result')
    expect(d.state()).toMatchObject({ tag: 'result', outcome: 'done' })
    // Not told yet: the deposit is kept, so a page closed now tells the kit on the next visit.
    expect(depositStore(storage).load()).toMatchObject({ txHash: hashOf(0xd0) })
    expect(depositStore(storage).load()?.kit).toBeUndefined()
  })

  /** The service says the deposit is done at once; the kit's answer to the report waits until the returned function is called. */
  function holdReport() {
    let answer!: () => void
    api.answer('/deposit/status', () => ({ status: 'done', txHashes: { delivered: hashOf(0xee) } }))
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      sent.push({ url: String(input), auth: null, body: JSON.parse(String(init?.body)), at: clock.now() })
      await new Promise<void>((resolve) => (answer = resolve))
      return new Response(JSON.stringify({ id: 'dep_kit_1' }), { status: 200, headers: { 'Content-Type': 'application/json' } })
    })
    return () => answer()
  }

  it('the record is cleared once a pending report ends', async () => {
    kitAnswers = ['hang']
    const answer = holdReport()
    const storage = memoryStorage()
    const d = drive(following('confirming'), withPartner, depositStore(storage))
    await until(() => d.state().tag === 'result', 'the result')
    expect(depositStore(storage).load()).toBeDefined()
    answer()
    await until(() => depositStore(storage).load() === undefined, 'the record cleared')
    expect(d.state()).toMatchObject({ tag: 'result', tracking: { kit: { id: 'dep_kit_1' } } })
  })

  it('a report that ends after the buyer started another deposit leaves that deposit kept', async () => {
    const answer = holdReport()
    const storage = memoryStorage()
    const d = drive({ ...following('confirming'), session: session() } as DepositState, withPartner, depositStore(storage))
    await until(() => d.state().tag === 'result', 'the result')
    d.dispatch({ type: 'RESTART' })
    const next = trackingOf(hashOf(0xd9), announced.wallet.rdns)
    depositStore(storage).save(next)
    answer()
    await clock.advance(1_000)
    expect(depositStore(storage).load()).toEqual(next)
  })
})
