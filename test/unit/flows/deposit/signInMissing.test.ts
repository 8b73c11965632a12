// A partner whose kit links wallets (walletLink) links them to its signed-in user, known by the
// partner token. Both kinds of link are legitimate: an unsigned one (`?partner=…&flow=deposit`, which
// anyone may build: SECURITY.md) and one the partner signed with a partnerToken. From a link without
// a token (and without the partner's cookies) the kit answers the wallet check with 401: no deposit
// can be sent from it. Asked as the price is, that is said at the price, before confirming and
// before anything is asked of the wallet, in words that are true (a sign-in that never existed did
// not "end"), and the page hears it. A backend that knows its buyer its own way (the sandbox's) is
// taken at its word. Against the real kit.
import '../../setup/afterFirstScreen'
import '../../../../src/polling/pollStatus'
import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { WidgetConfig } from '../../../../src/config/config'
import { type RegistryEntry, resolveLink } from '../../../../src/config/link'
import { sendProblemCode, sendProblemText } from '../../../../src/errors/words'
import { depositEvents } from '../../../../src/flows/deposit/hostEvents'
import { type DepositEvent, type DepositState, NO_SIGN_IN, transition } from '../../../../src/flows/deposit/machine'
import { enDeposit } from '../../../../src/i18n/en-deposit'
import { addEnglish } from '../../../../src/i18n/i18n'
import { type FakeClock, createFakeClock, until } from '../../helpers/fakeClock'
import { fakeApi } from '../../helpers/fakeApi'
import { announceWallet, fakeChain } from '../../helpers/fakeChain'
import { START, depositConfig, depositQuote, driveDeposit, form, sessionOf, quotedDeposit } from '../../helpers/deposit'
import { walletLinkKit } from '../../helpers/walletLinkKit'
import { useFakeQueryTime } from '../../helpers/queryTime'
import { configFrom, registry, signed } from '../../helpers/links'

await import('../../../../src/flows/deposit/linkWallet')
addEnglish(enDeposit)

const ENTRY: RegistryEntry = { ...registry[0], walletLink: true }
const PARTNER = ENTRY.partnerBase!
const PAGE = new URL('https://widget.example/')
const kit = walletLinkKit(PARTNER, PAGE.origin, { 8453: { rpcUrl: 'http://127.0.0.1:8545' } })
/** What an unsigned link of this entry runs with (no partner token, no cookies), over the test chain's token. */
const unsigned: WidgetConfig = { ...depositConfig, partnerBase: PARTNER, walletLink: true }
const SIGN_IN_WORDS =
  "This payment link cannot take a crypto deposit without your sign-in on the shop's site. Nothing was sent. Sign in on the site you came from and start the deposit from there."
const context = { flow: 'deposit' as const, chain: 'Base', symbol: 'USDC', amount: '25.5' }

/** The config a hosted page runs with for this link (the registry entry says its kit links wallets). */
async function configOf(search: string): Promise<WidgetConfig> {
  const link = await resolveLink(search, [ENTRY], START)
  if (!link.ok) throw new Error(link.detail)
  return { ...configFrom(link.options), chains: [{ id: 8453, name: 'Base', rpcUrl: 'http://127.0.0.1:8545' }] }
}

let clock: FakeClock
let asked: Array<{ path: string; auth: string | null }>
/** Another backend in front of the kit, where a test needs one. */
let backend: ((request: Request) => Promise<Response>) | undefined
beforeEach(() => {
  clock = createFakeClock(START)
  useFakeQueryTime(clock)
  asked = []
  backend = undefined
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers: Record<string, string> = { ...(init?.headers as Record<string, string>), Origin: PAGE.origin }
    asked.push({ path: new URL(String(input)).pathname, auth: headers.Authorization ?? null })
    return (backend ?? kit)(new Request(String(input), { method: init?.method, body: init?.body as string, headers }))
  })
})
afterEach(() => vi.unstubAllGlobals())

/** The deposit from its form, priced by the service, for a partner with these options. */
function fromForm(config: WidgetConfig) {
  const target = Object.assign(new EventTarget(), { location: PAGE }) as unknown as Window
  const announced = announceWallet(target)
  const chain = fakeChain()
  const api = fakeApi()
  api.answer('/deposit/quote', () => depositQuote(clock.now()))
  const start: DepositState = { tag: 'form', form, session: sessionOf(announced.wallet) }
  const d = driveDeposit(start, { config, api, target, clock, loadChainActions: chain.load })
  const state = () => d.state() as Extract<DepositState, { tag: 'quote' }>
  return { d, chain, state, stop: () => (d.dispose(), announced.stop()) }
}

/** The deposit at its confirm screen (its price already shown), for a partner with these options. */
function atQuote(config: WidgetConfig) {
  const target = Object.assign(new EventTarget(), { location: PAGE }) as unknown as Window
  const announced = announceWallet(target)
  const chain = fakeChain()
  const start: DepositState = quotedDeposit(sessionOf(announced.wallet))
  const d = driveDeposit(start, { config, api: fakeApi(), target, clock, loadChainActions: chain.load })
  const state = () => d.state() as Extract<DepositState, { tag: 'quote' }>
  return { d, chain, state, stop: () => (d.dispose(), announced.stop()) }
}

describe('walletLink on, a link without a partner token', () => {
  it('an unsigned deposit link starts (a legitimate link), with no token', async () => {
    expect(await configOf('?partner=acme-shop&flow=deposit')).toMatchObject({
      flow: 'deposit',
      walletLink: true,
      partnerBase: PARTNER,
      partnerToken: undefined,
      partnerCookies: false,
    })
    expect(unsigned).toMatchObject({ walletLink: true, partnerBase: PARTNER, partnerToken: undefined, partnerCookies: false })
  })

  it('the kit is asked as the price is; its 401 is said at the price, before confirming, and confirming does nothing: nothing sent, the wallet asked nothing', async () => {
    const { d, chain, state, stop } = fromForm(unsigned)
    d.dispatch({ type: 'SUBMIT' })
    await until(() => d.state().tag === 'quote' && !!state().session.noSignIn, "the price, and the kit's answer")
    expect(asked).toEqual([{ path: '/api/deposit/wallet', auth: null }])
    expect(state()).toMatchObject({ tag: 'quote', amount: '25.5', session: { noSignIn: true } })
    expect(state().notice).toBeUndefined()
    expect(sendProblemText(NO_SIGN_IN, context)).toBe(SIGN_IN_WORDS)
    expect(sendProblemCode(NO_SIGN_IN)).toBe('unauthenticated')
    for (let i = 0; i < 2; i++) {
      d.dispatch({ type: 'CONFIRM' })
      await clock.advance(1_000)
      expect(state()).toMatchObject({ tag: 'quote', work: 'idle' })
    }
    // A new price for the same request asks the kit nothing more.
    await clock.advance(60_000)
    await until(() => d.state().tag === 'quote' && state().quotedAt > START, 'the new price')
    stop()
    expect(asked).toHaveLength(1)
    expect(chain.prompts).toEqual([])
    expect(chain.actions.currentChainId).not.toHaveBeenCalled()
    expect(chain.actions.ensureChain).not.toHaveBeenCalled()
  })

  it('confirmed before the kit answered: still nothing sent, and the words are true, not a sign-in that "has ended"', async () => {
    const { d, chain, state, stop } = atQuote(await configOf('?partner=acme-shop&flow=deposit'))
    const texts: string[] = []
    for (let i = 0; i < 2; i++) {
      d.dispatch({ type: 'CONFIRM' })
      await until(() => state().work === 'idle' && (state().notice !== undefined || !!state().session.noSignIn) && texts.length === i, 'the notice')
      texts.push(sendProblemText(state().notice ?? NO_SIGN_IN, context))
    }
    stop()
    expect(texts).toEqual([SIGN_IN_WORDS, SIGN_IN_WORDS])
    expect(texts.some((t) => /has ended/.test(t))).toBe(false)
    expect(chain.prompts).toEqual([])
  })

  it("the page hears it once, as the price is asked or shown, with the quote's words (a new price for the same request is no news)", async () => {
    const config = await configOf('?partner=acme-shop&flow=deposit')
    const session = sessionOf({ id: 'w', name: 'W', rdns: 'w' })
    const ctx = { sourceDecimals: [6], decimalMark: '.' as const }
    const run = (events: DepositEvent[]) => {
      const steps: DepositState[] = [{ tag: 'form', form, session }]
      for (const event of events) steps.push(transition(steps[steps.length - 1], event, ctx))
      return steps
    }
    const errors = (steps: DepositState[], config: WidgetConfig) =>
      steps
        .slice(1)
        .flatMap((next, i) => depositEvents(steps[i], next, config))
        .filter((e) => e.name === 'error')
    const heard = [{ name: 'error', payload: { flow: 'deposit', code: 'unauthenticated', message: SIGN_IN_WORDS } }]
    const QUOTED = (at: number): DepositEvent => ({ type: 'QUOTED', quote: depositQuote(at), at })
    // The kit's answer before the price, or after it; then a new price.
    for (const events of [
      [{ type: 'SUBMIT' }, { type: 'NO_SIGN_IN' }, QUOTED(START), { type: 'EXPIRED' }, QUOTED(START + 60_000)],
      [{ type: 'SUBMIT' }, QUOTED(START), { type: 'NO_SIGN_IN' }, { type: 'CONFIRM' }, { type: 'EXPIRED' }, QUOTED(START + 60_000)],
    ] as DepositEvent[][]) {
      const steps = run(events)
      expect(steps.at(-1)).toMatchObject({ tag: 'quote', work: 'idle', session: { noSignIn: true } })
      expect(errors(steps, config)).toEqual(heard)
    }
    // Without the kit's 401, nothing.
    expect(errors(run([{ type: 'SUBMIT' }, QUOTED(START)]), config)).toEqual([])
  })

  it("with the partner's cookies and no token, nothing is asked before confirming; the send's 401 is said as a missing sign-in, not one that ended", async () => {
    const { d, chain, state, stop } = atQuote({ ...(await configOf('?partner=acme-shop&flow=deposit')), partnerCookies: true })
    await clock.advance(1_000)
    expect(asked).toEqual([])
    d.dispatch({ type: 'CONFIRM' })
    await until(() => state().work === 'idle' && state().notice !== undefined, 'the notice')
    stop()
    expect(asked).toEqual([{ path: '/api/deposit/wallet', auth: null }])
    expect(state().notice).toEqual({ kind: 'check', problem: { key: 'link.signIn', code: 'unauthenticated' } })
    expect(sendProblemText(state().notice!, context)).toBe(SIGN_IN_WORDS)
    expect(chain.prompts).toEqual([])
  })

  it('a backend that knows its buyer without a token (its own session, as the sandbox does) is taken at its word: nothing said, the deposit goes', async () => {
    // The partner's server in front of the kit names its buyer for a request without a token.
    backend = (request) => {
      const headers = new Headers(request.headers)
      if (!headers.has('Authorization')) headers.set('Authorization', 'Bearer tok-alice')
      return kit(new Request(request, { headers }))
    }
    const { d, chain, state, stop } = fromForm(unsigned)
    d.dispatch({ type: 'SUBMIT' })
    await until(() => d.state().tag === 'quote' && asked.length === 1, "the price, and the kit's answer")
    await clock.advance(1_000)
    expect(state().session.noSignIn).toBeUndefined()
    // Confirmed: the send asks the kit as always (its message is for this page; the wallet signs it).
    d.dispatch({ type: 'CONFIRM' })
    await until(() => asked.length === 2, 'the send asking the kit')
    stop()
    expect(asked.map((a) => a.path)).toEqual(['/api/deposit/wallet', '/api/deposit/wallet'])
    expect(state().notice).not.toEqual(NO_SIGN_IN)
    expect(chain.actions.currentChainId).toHaveBeenCalled()
  })
})

describe('walletLink on, a link the partner signed with a token', () => {
  it('is asked of the kit as before, with the token; a token the kit refuses is a sign-in that ended', async () => {
    const exp = START / 1000 + 600
    const config = await configOf(await signed(`partner=acme-shop&flow=deposit&partnerToken=tok-bob&expires=${exp}`))
    expect(config.partnerToken).toBe('tok-bob')
    const { d, state, stop } = atQuote(config)
    await clock.advance(1_000)
    // Nothing asked before confirming: a link with a token is asked when the deposit is sent.
    expect(asked).toEqual([])
    d.dispatch({ type: 'CONFIRM' })
    await until(() => state().work === 'idle' && state().notice !== undefined, 'the notice')
    stop()
    expect(asked).toEqual([{ path: '/api/deposit/wallet', auth: 'Bearer tok-bob' }])
    expect(state().notice).toMatchObject({ kind: 'check', problem: { key: 'partner.signIn', code: 'unauthenticated' } })
  })
})
