// A registry entry without walletLink (the default, or one written before it) for a kit that runs
// with chains, as the README's own partner server does: the deposit is sent unlinked, and the kit
// refuses its /deposit/sent (403 wallet_not_linked) and records nothing. That refusal is not
// dropped: the page hears an `error` (code wallet_not_linked, no address or wallet in it), the
// console names walletLink (a misconfiguration), and the buyer, whose deposit was sent and is
// followed as before, reads what to do if the shop does not show it, with the transaction.
import '../../setup/afterFirstScreen'
import '../../../../src/polling/pollStatus'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { WidgetConfig } from '../../../../src/config/config'
import { depositEvents } from '../../../../src/flows/deposit/hostEvents'
import { type DepositState, transition, unrecorded } from '../../../../src/flows/deposit/machine'
import { type FakeClock, createFakeClock, until } from '../../helpers/fakeClock'
import { fakeApi } from '../../helpers/fakeApi'
import { BUYER, announceWallet, fakeChain, hashOf } from '../../helpers/fakeChain'
import { START, depositConfig, depositQuote, driveDeposit, form, sessionOf, trackingOf, quotedDeposit } from '../../helpers/deposit'
import { useFakeQueryTime } from '../../helpers/queryTime'
import { notLinked } from '../../helpers/kit'
import { enDeposit } from '../../../../src/i18n/en-deposit'
import { addEnglish } from '../../../../src/i18n/i18n'

await import('../../../../src/flows/deposit/report')
await import('../../../../src/flows/deposit/linkWallet')
// The flow's words, as its chunk adds them.
addEnglish(enDeposit)

const PARTNER = 'https://shop.example.com/api'
const timings = { pollMs: 1_000, dropCheckMs: 500, kycRecheckMs: 1_000, bankPollMs: 1_000, backoffBaseMs: 100 }
/** The registry entry without walletLink (the default), for a kit that runs with chains. */
const config: WidgetConfig = { ...depositConfig, timings, partnerBase: PARTNER, partnerToken: 'tok-alice', walletLink: false }
let clock: FakeClock
let announced: ReturnType<typeof announceWallet>
let calls: string[]
let refusal: { status: number; body: unknown }

beforeEach(() => {
  clock = createFakeClock(START)
  useFakeQueryTime(clock)
  calls = []
  refusal = notLinked
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const path = String(input).slice(PARTNER.length)
    calls.push(path)
    if (path === '/deposit/sent') return Response.json(refusal.body, { status: refusal.status })
    return Response.json({ linked: true })
  })
})
afterEach(() => vi.unstubAllGlobals())

/** The buyer confirms a quoted deposit from the announced wallet, the service's status pending. */
function confirmQuoted() {
  const target = new EventTarget() as unknown as Window
  announced = announceWallet(target)
  const chain = fakeChain()
  const api = fakeApi()
  api.answer('/deposit/status', () => ({ status: 'pending' }))
  const start: DepositState = quotedDeposit(sessionOf(announced.wallet))
  const d = driveDeposit(start, { config, api, target, clock, loadChainActions: chain.load })
  d.dispatch({ type: 'CONFIRM' })
  return { start, chain, api, d }
}

describe('walletLink off, kit with chains', () => {
  it('a deposit the kit refuses to record is not sent silently: the page hears it, the console names walletLink, the deposit is followed as before', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { start, chain, api, d } = confirmQuoted()
    await until(() => d.state().tag === 'tracking', 'SENT')
    await until(() => calls.includes('/deposit/sent'), 'the report')
    await until(() => d.types().includes('UNRECORDED'), 'the refusal')
    const polls = api.to('/deposit/status').length
    await clock.advance(30_000)
    d.dispose()
    announced.stop()

    // Sent unlinked (walletLink off: the kit was not asked about the wallet), told once: a refusal is final.
    expect(calls.includes('/deposit/wallet')).toBe(false)
    expect(chain.prompts).toEqual(['send'])
    expect(calls.filter((c) => c === '/deposit/sent')).toHaveLength(1)
    // Followed as before.
    expect(d.state()).toMatchObject({ tag: 'tracking', phase: 'delivering', tracking: { txHash: hashOf(1), unrecorded: hashOf(1) } })
    expect(api.to('/deposit/status').length).toBeGreaterThan(polls)

    // What the partner's page heard, replaying the machine's events through the host-event mapping.
    const host: Array<{ name: string; payload: unknown }> = []
    let s: DepositState = start
    for (const e of d.events) {
      const next = transition(s, e, { sourceDecimals: [6], decimalMark: '.' })
      host.push(...depositEvents(s, next, config))
      s = next
    }
    const heard = host.filter((h) => h.name === 'error')
    expect(heard).toEqual([
      {
        name: 'error',
        payload: { flow: 'deposit', code: 'wallet_not_linked', message: 'If the shop does not show this payment, contact the shop with this transaction.' },
      },
    ])
    expect(JSON.stringify(heard).toLowerCase()).not.toContain(BUYER.toLowerCase())
    // The console says what is misconfigured, and names no address either.
    expect(errors).toHaveBeenCalledTimes(1)
    expect(String(errors.mock.calls[0][0])).toMatch(/^\[stablecoin-widget\] walletLink: .*403 wallet_not_linked.*set walletLink: true$/)
    expect(String(errors.mock.calls[0][0]).toLowerCase()).not.toContain(BUYER.toLowerCase())
    errors.mockRestore()
  })

  it('422 deposit_not_as_quoted (paid by address, not as quoted) is final too: told once, said as unrecorded', async () => {
    refusal = {
      status: 422,
      body: { error: { code: 'deposit_not_as_quoted', message: 'txHash: it pays the deposit address another amount or another token than quoted' } },
    }
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { d } = confirmQuoted()
    await until(() => d.types().includes('UNRECORDED'), 'the refusal')
    await clock.advance(30_000)
    d.dispose()
    announced.stop()
    expect(calls.filter((c) => c === '/deposit/sent')).toHaveLength(1)
    expect(d.state()).toMatchObject({ tag: 'tracking', tracking: { unrecorded: hashOf(1) } })
    expect(String(errors.mock.calls[0][0])).toContain('422 deposit_not_as_quoted')
    errors.mockRestore()
  })

  it("429 user_limit_reached (the user's limit, counted when the kit records) is final too: told once, said as unrecorded, not dropped quietly", async () => {
    refusal = { status: 429, body: { error: { code: 'user_limit_reached', message: "This user's limit is reached: at most 1 per day." } } }
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const target = new EventTarget() as unknown as Window
    announced = announceWallet(target)
    const chain = fakeChain()
    const api = fakeApi()
    api.answer('/deposit/status', () => ({ status: 'pending' }))
    const d = driveDeposit(quotedDeposit(sessionOf(announced.wallet)), { config, api, target, clock, loadChainActions: chain.load })
    d.dispatch({ type: 'CONFIRM' })
    await until(() => calls.includes('/deposit/sent'), 'the report')
    await clock.advance(30_000)
    d.dispose()
    announced.stop()
    expect(calls.filter((c) => c === '/deposit/sent')).toHaveLength(1)
    expect(d.state()).toMatchObject({ tag: 'tracking', tracking: { unrecorded: hashOf(1) } })
    expect(String(errors.mock.calls[0]?.[0])).toContain('429 user_limit_reached')
    errors.mockRestore()
  })

  it('a new hash (the wallet repriced the transaction) is not the refused one', () => {
    const ctx = { sourceDecimals: [6], decimalMark: '.' as const }
    const tracking = { ...trackingOf(hashOf(1)), unrecorded: hashOf(1) }
    let s: DepositState = { tag: 'tracking', tracking, phase: 'confirming', attempt: 0 }
    expect(unrecorded(tracking)).toBe(true)
    s = transition(s, { type: 'REPLACED', reason: 'repriced', txHash: hashOf(2) }, ctx)
    expect(unrecorded((s as Extract<DepositState, { tag: 'tracking' }>).tracking)).toBe(false)
    // A refusal for another hash changes nothing.
    expect(transition(s, { type: 'UNRECORDED', txHash: hashOf(9) }, ctx)).toBe(s)
  })
})
