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
import { START, type DepositDriver, depositConfig, depositQuote, driveDeposit, form, sessionOf } from '../../helpers/deposit'
import { useFakeQueryTime } from '../../helpers/queryTime'
import { devKey } from '../../server/walletKeys'

// The chunk, fetched by the flow before the first send: here already, as after its first fetch.
await import('../../../../src/flows/deposit/linkWallet')
// The flow's words, as its chunk adds them.
addEnglish(enDeposit)

const PARTNER = 'https://shop.example.com/api'
const PAGE = new URL('https://shop.example.com/checkout')
const config = { ...depositConfig, partnerBase: PARTNER, partnerToken: 'pt_session' }

/** The kit's message as src/server/walletLink.ts writes it (its URI the kit's publicUrl, here partnerBase), for this page unless told otherwise. */
const kitMessage = (change: Partial<Parameters<typeof createSiweMessage>[0]> = {}) =>
  createSiweMessage({
    scheme: 'https', domain: PAGE.host, uri: PARTNER, address: BUYER, chainId: 8453, nonce: '0123456789abcdef0123456789abcdef', version: '1',
    statement: 'Confirm this wallet is yours. Signing costs nothing and moves no money.', issuedAt: new Date(START), expirationTime: new Date(START + 600_000), ...change,
  })

let clock: FakeClock
let chain: ReturnType<typeof fakeChain>
let announced: ReturnType<typeof announceWallet>
let driver: DepositDriver | undefined
let kit: Array<{ path: string; body: any }>
let challenge: unknown
let challengeStatus: number
let linkAnswer: { status: number; body: unknown }
let signs: Array<{ method: string; params: unknown }>
let answerSign: (params: [Hex, string]) => Promise<unknown>
/** The wallet-link calls to the kit (the report of a sent deposit may follow them). */
const linkCalls = () => kit.filter((k) => k.path.startsWith('/deposit/wallet')).map((k) => k.path)

beforeEach(() => {
  clock = createFakeClock(START)
  useFakeQueryTime(clock)
  const target = Object.assign(new EventTarget(), { location: PAGE }) as unknown as Window
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
  linkAnswer = { status: 200, body: { linked: true } }
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input).slice(PARTNER.length)
    kit.push({ path, body: JSON.parse(String(init?.body)) })
    if (path === '/deposit/wallet') return Response.json(challenge, { status: challengeStatus })
    if (path === '/deposit/wallet/link') return Response.json(linkAnswer.body, { status: linkAnswer.status })
    return Response.json({ id: 'dep_kit_1' })
  })
  driver = driveDeposit(
    { tag: 'quote', form, session: sessionOf(announced.wallet), amount: '25.5', work: 'idle', quote: depositQuote(START), quotedAt: START, preview: { kind: 'ready', safe: true, outflow: [{ amount: '25.5', symbol: 'USDC' }], feeSymbol: 'ETH' } },
    { config, api: fakeApi(), target, clock, loadChainActions: chain.load },
  )
})

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
    expect(sendProblemText(state().notice!, { flow: 'deposit', chain: 'Base', symbol: 'USDC', amount: '25.5' })).toMatch(/did not confirm this wallet is yours, so nothing was sent/)
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
    expect(sendProblemText(state().notice!, { flow: 'deposit', chain: 'Base', symbol: 'USDC', amount: '25.5' })).toMatch(/linked to another account on this site/)
    expect(chain.prompts).toEqual([])
  })

  // A partner backend that reads no crypto deposits (a kit without chains, or a backend of the
  // partner's own without the route) credits none, whoever sent them: there is nothing to link, and
  // the deposit goes as it did before the check (its report to the kit is dropped as before).
  it.each([
    [400, 'chain_not_configured', 'chainId: 8453 is not a chain this backend reads'],
    [404, 'route_not_found', 'No such route'],
  ])('a backend that reads no deposits (%i %s): nothing to sign, the deposit is sent', async (status, code, message) => {
    challengeStatus = status
    challenge = { error: { code, message } }
    driver!.dispatch({ type: 'CONFIRM' })
    await until(() => driver!.state().tag === 'tracking', 'SENT')
    expect(signs).toEqual([])
    expect(chain.prompts).toEqual(['send'])
    expect(linkCalls()).toEqual(['/deposit/wallet'])
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
