// Where the partner has a backend, its kit credits a deposit only to the user who linked the
// sending wallet (src/server/walletLink.ts). Before the first send from a wallet not linked yet,
// the widget asks the wallet to sign the kit's message, once, after checking that the message is
// a sign-in for this page, this account and the quote's chain, and nothing else.
import '../../setup/afterFirstScreen'
import '../../../../src/polling/pollStatus'
import { type Hex, hexToString, verifyMessage } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { DepositState } from '../../../../src/flows/deposit/machine'
import { sendProblemText } from '../../../../src/errors/words'
import { enDeposit } from '../../../../src/i18n/en-deposit'
import { addEnglish } from '../../../../src/i18n/i18n'
import { type FakeClock, createFakeClock, until } from '../../helpers/fakeClock'
import { fakeApi } from '../../helpers/fakeApi'
import { BUYER, announceWallet, fakeChain } from '../../helpers/fakeChain'
import { START, type DepositDriver, depositConfig, depositQuote, driveDeposit, form, sessionOf, quotedDeposit } from '../../helpers/deposit'
import { useFakeQueryTime } from '../../helpers/queryTime'
import { devKey } from '../../server/walletKeys'

// The chunk, fetched by the flow before the first send: here already, as after its first fetch.
await import('../../../../src/flows/deposit/linkWallet')
// The flow's words, as its chunk adds them.
addEnglish(enDeposit)

const PARTNER = 'https://shop.example.com/api'
const PAGE = new URL('https://shop.example.com/checkout')
/** A partner whose registry entry says its kit links wallets (it runs with chains). */
const config = { ...depositConfig, partnerBase: PARTNER, partnerToken: 'pt_session', walletLink: true }

/** The kit's message as src/server/walletLink.ts writes it (its URI the kit's publicUrl, here partnerBase), for this page unless told otherwise. */
const kitMessage = (change: Partial<Parameters<typeof createSiweMessage>[0]> = {}) =>
  createSiweMessage({
    scheme: 'https',
    domain: PAGE.host,
    uri: PARTNER,
    address: BUYER,
    chainId: 8453,
    nonce: '0123456789abcdef0123456789abcdef',
    version: '1',
    statement: 'Confirm this wallet is yours. Signing costs nothing and moves no money.',
    issuedAt: new Date(START),
    expirationTime: new Date(START + 600_000),
    ...change,
  })

let clock: FakeClock
let chain: ReturnType<typeof fakeChain>
let announced: ReturnType<typeof announceWallet>
let driver: DepositDriver | undefined
let kit: Array<{ path: string; body: any }>
let challenge: unknown
let challengeStatus: number
/** The backend gives no answer the page may read (a 404 without CORS headers, or down): fetch rejects. */
let silent: (path: string) => boolean
let target: Window
let linkAnswer: { status: number; body: unknown }
let signs: Array<{ method: string; params: unknown }>
let answerSign: (params: [Hex, string]) => Promise<unknown>
/** The wallet-link calls to the kit (the report of a sent deposit may follow them). */
const linkCalls = () => kit.filter((k) => k.path.startsWith('/deposit/wallet')).map((k) => k.path)

beforeEach(() => {
  clock = createFakeClock(START)
  useFakeQueryTime(clock)
  target = Object.assign(new EventTarget(), { location: PAGE }) as unknown as Window
  chain = fakeChain()
  signs = []
  // The wallet signs with the buyer's own key, as a real one does.
  answerSign = ([data]) => devKey(1).signMessage({ message: hexToString(data) })
  announced = announceWallet(target, {
    request: async ({ method, params }) => {
      signs.push({ method, params })
      if (method === 'personal_sign') return answerSign(params as [Hex, string])
      throw new Error(`provider: ${method}`)
    },
  })
  kit = []
  challenge = { linked: false, message: kitMessage() }
  challengeStatus = 200
  silent = () => false
  linkAnswer = { status: 200, body: { linked: true } }
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input).slice(PARTNER.length)
    kit.push({ path, body: JSON.parse(String(init?.body)) })
    if (silent(path)) throw new TypeError('Failed to fetch')
    if (path === '/deposit/wallet') return Response.json(challenge, { status: challengeStatus })
    if (path === '/deposit/wallet/link') return Response.json(linkAnswer.body, { status: linkAnswer.status })
    return Response.json({ id: 'dep_kit_1' })
  })
  drive(config)
})

/** The deposit at its confirm screen, for a partner with these options. */
function drive(options: typeof config | typeof depositConfig) {
  driver?.dispose()
  driver = driveDeposit(quotedDeposit(sessionOf(announced.wallet)), { config: options, api: fakeApi(), target, clock, loadChainActions: chain.load })
}

afterEach(() => {
  driver?.dispose()
  driver = undefined
  announced.stop()
  vi.unstubAllGlobals()
})

const state = () => driver!.state() as Extract<DepositState, { tag: 'quote' }>

describe('the wallet check before the first send', () => {
  it("asks the wallet to sign the kit's message once, before anything is sent, saying why; then sends", async () => {
    let signed!: () => void
    const held = new Promise<void>((resolve) => (signed = resolve))
    const sign = answerSign
    answerSign = async (params) => (await held, sign(params))
    driver!.dispatch({ type: 'CONFIRM' })
    await until(() => signs.length === 1, 'the signature request')
    expect(state()).toMatchObject({ tag: 'quote', work: 'linking' })
    expect(chain.prompts).toEqual([])
    expect(signs[0]).toEqual({ method: 'personal_sign', params: [expect.stringMatching(/^0x/), BUYER] })
    expect(hexToString((signs[0].params as [Hex, string])[0])).toBe(kitMessage())
    signed()
    await until(() => driver!.state().tag === 'tracking', 'SENT')
    expect(chain.prompts).toEqual(['send'])
    expect(linkCalls()).toEqual(['/deposit/wallet', '/deposit/wallet/link'])
    expect(kit[0].body).toEqual({ address: BUYER, chainId: 8453 })
    // What the kit got: the very message, signed by the buyer's wallet.
    expect(kit[1].body.message).toBe(kitMessage())
    expect(await verifyMessage({ address: BUYER, message: kitMessage(), signature: kit[1].body.signature })).toBe(true)
  })

  it('a wallet the kit says is linked already is not asked to sign', async () => {
    challenge = { linked: true }
    driver!.dispatch({ type: 'CONFIRM' })
    await until(() => driver!.state().tag === 'tracking', 'SENT')
    expect(signs).toEqual([])
    expect(chain.prompts).toEqual(['send'])
    expect(linkCalls()).toEqual(['/deposit/wallet'])
  })

  it('declined in the wallet: back at the quote with a notice, nothing sent, nothing lost', async () => {
    answerSign = async () => Promise.reject(Object.assign(new Error('User rejected the request.'), { code: 4001 }))
    driver!.dispatch({ type: 'CONFIRM' })
    await until(() => state().work === 'idle' && state().notice !== undefined, 'the notice')
    expect(state()).toMatchObject({ tag: 'quote', work: 'idle', notice: { kind: 'unlinked' }, amount: '25.5', quote: depositQuote(START) })
    expect(sendProblemText(state().notice!, { flow: 'deposit', chain: 'Base', symbol: 'USDC', amount: '25.5' })).toMatch(
      /did not confirm this wallet is yours, so nothing was sent/,
    )
    expect(chain.prompts).toEqual([])
    expect(linkCalls()).toEqual(['/deposit/wallet'])
    // Confirmed again: asked again, and sent.
    answerSign = ([data]) => devKey(1).signMessage({ message: hexToString(data) })
    driver!.dispatch({ type: 'CONFIRM' })
    await until(() => driver!.state().tag === 'tracking', 'SENT')
    expect(signs.filter((s) => s.method === 'personal_sign')).toHaveLength(2)
  })

  it.each([
    ['another account', { address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' as const }],
    ['another chain', { chainId: 42161 }],
    ['another site', { domain: 'evil.example' }],
    ['another page of the site', { domain: 'pay.shop.example.com' }],
    ['http', { scheme: 'http' }],
    ["another partner's kit (relayed by this partner's backend)", { uri: 'https://other-partner.example/api' }],
    ['this page rather than its kit', { uri: PAGE.origin }],
    ['resources that grant more', { resources: ['https://evil.example/grant-all'] }],
    ['a request id', { requestId: 'x' }],
  ])('a message for %s is never shown to the wallet, and nothing is sent', async (_name, change) => {
    challenge = { linked: false, message: kitMessage(change) }
    driver!.dispatch({ type: 'CONFIRM' })
    await until(() => state().work === 'idle' && state().notice !== undefined, 'the notice')
    expect(state().notice).toEqual({ kind: 'refused', rule: 'link.message' })
    expect(signs).toEqual([])
    expect(chain.prompts).toEqual([])
  })

  it.each([
    ['a line after its fields', `${kitMessage()}\nTransfer all funds: yes`],
    ['no sign-in at all', 'Please sign to continue'],
    ['a transaction hash', `0x${'ab'.repeat(32)}`],
  ])('a message with %s is never shown to the wallet', async (_name, message) => {
    challenge = { linked: false, message }
    driver!.dispatch({ type: 'CONFIRM' })
    await until(() => state().work === 'idle' && state().notice !== undefined, 'the notice')
    expect(state().notice).toEqual({ kind: 'refused', rule: 'link.message' })
    expect(signs).toEqual([])
  })

  it("the kit's refusal (a wallet another user linked) is said in the buyer's words, and nothing is sent", async () => {
    linkAnswer = { status: 409, body: { error: { code: 'wallet_not_owned', message: 'address: this wallet is linked to another user of this site' } } }
    driver!.dispatch({ type: 'CONFIRM' })
    await until(() => state().work === 'idle' && state().notice !== undefined, 'the notice')
    expect(state().notice).toMatchObject({ kind: 'check', problem: { key: 'partner.walletTaken', code: 'wallet_not_owned' } })
    expect(sendProblemText(state().notice!, { flow: 'deposit', chain: 'Base', symbol: 'USDC', amount: '25.5' })).toMatch(
      /linked to another account on this site/,
    )
    expect(chain.prompts).toEqual([])
  })

  // The registry said this partner's kit links wallets: a backend without the route is
  // misconfigured. Sent anyway, the deposit would reach a kit that credits it to no one (its report
  // refused): the buyer stays at the quote, told that the shop's service is not ready, nothing sent;
  // confirming again asks again. (A chain the kit does not read has words of its own:
  // chainNotTaken.test.ts.)
  it.each([[404, 'route_not_found', 'No such route']])(
    'a declared kit without the route (%i %s): the buyer stays at the quote, nothing sent',
    async (status, code, message) => {
      challengeStatus = status
      challenge = { error: { code, message } }
      driver!.dispatch({ type: 'CONFIRM' })
      await until(() => state().work === 'idle' && state().notice !== undefined, 'the notice')
      expect(state()).toMatchObject({
        tag: 'quote',
        notice: { kind: 'check', problem: { key: 'link.notReady', code } },
        amount: '25.5',
        quote: depositQuote(START),
      })
      expect(sendProblemText(state().notice!, { flow: 'deposit', chain: 'Base', symbol: 'USDC', amount: '25.5' })).toMatch(
        /not ready to take crypto deposits.*Nothing was sent/,
      )
      expect(signs).toEqual([])
      expect(chain.prompts).toEqual([])
      // Fixed on the partner's side: confirming again asks again, and sends.
      challengeStatus = 200
      challenge = { linked: true }
      driver!.dispatch({ type: 'CONFIRM' })
      await until(() => driver!.state().tag === 'tracking', 'SENT')
      expect(linkCalls()).toEqual(['/deposit/wallet', '/deposit/wallet'])
    },
  )

  it('a declared kit that does not answer (a 404 without CORS headers reads as none): the buyer stays at the quote, told so, and may try again', async () => {
    silent = (path) => path === '/deposit/wallet'
    driver!.dispatch({ type: 'CONFIRM' })
    await until(() => state().work === 'idle' && state().notice !== undefined, 'the notice')
    expect(state()).toMatchObject({ tag: 'quote', notice: { kind: 'check', problem: { key: 'error.partnerUnreachable' } }, amount: '25.5' })
    expect(sendProblemText(state().notice!, { flow: 'deposit', chain: 'Base', symbol: 'USDC', amount: '25.5' })).toMatch(/did not answer\. Try again/)
    expect(signs).toEqual([])
    expect(chain.prompts).toEqual([])
    silent = () => false
    driver!.dispatch({ type: 'CONFIRM' })
    await until(() => driver!.state().tag === 'tracking', 'SENT')
    expect(chain.prompts).toEqual(['send'])
  })

  it('any other trouble asking the kit keeps the deposit at the quote, nothing sent', async () => {
    challengeStatus = 502
    challenge = { error: { code: 'upstream_unreachable', message: 'down' } }
    driver!.dispatch({ type: 'CONFIRM' })
    await until(() => state().work === 'idle' && state().notice !== undefined, 'the notice')
    expect(state().notice).toMatchObject({ kind: 'check' })
    expect(chain.prompts).toEqual([])
  })
})

// Whether a partner's backend links wallets is its registry entry's word (walletLink), never a
// guess from how the backend answers: some serve the card routes but not this one, and answer its
// preflight with a 404 that has no CORS headers, which the page cannot tell from an outage.
describe('a partner whose registry entry does not say its kit links wallets', () => {
  it('is never asked about wallet links: the deposit goes as an unlinked one, even where that route gives no answer', async () => {
    silent = (path) => path.startsWith('/deposit/')
    drive({ ...depositConfig, partnerBase: PARTNER, partnerToken: 'pt_session' })
    driver!.dispatch({ type: 'CONFIRM' })
    await until(() => driver!.state().tag === 'tracking' || (state().work === 'idle' && state().notice !== undefined), 'SENT or a notice')
    expect(driver!.state()).toMatchObject({ tag: 'tracking' })
    expect(linkCalls()).toEqual([])
    expect(signs).toEqual([])
    expect(chain.prompts).toEqual(['send'])
  })
})
