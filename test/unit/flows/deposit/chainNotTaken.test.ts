// The partner's key is configured per source chain (partner-api.md, Authentication 4), the registry
// may offer sources on several chains, and the kit reads deposits per chain (`chains`). A kit that
// reads Arbitrum but not Base answers the wallet check for Base with 400 chain_not_configured. The
// buyer is told that this shop takes no crypto deposits from Base (not that its service "is not
// ready"), stays at the quote with nothing sent and nothing lost, and is sent to the form's other
// "Pay from" option where there is one. Against the real kit.
import '../../setup/afterFirstScreen'
import '../../../../src/polling/pollStatus'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { WidgetConfig } from '../../../../src/config/config'
import { sendProblemCode } from '../../../../src/errors/words'
import { noticeText } from '../../../../src/flows/deposit/notice'
import type { DepositState } from '../../../../src/flows/deposit/machine'
import { enDeposit } from '../../../../src/i18n/en-deposit'
import { addEnglish } from '../../../../src/i18n/i18n'
import { type FakeClock, createFakeClock, until } from '../../helpers/fakeClock'
import { fakeApi } from '../../helpers/fakeApi'
import { BUYER, announceWallet, fakeChain } from '../../helpers/fakeChain'
import { START, type DepositDriver, depositConfig, depositQuote, driveDeposit, form, sessionOf, quotedDeposit } from '../../helpers/deposit'
import { walletLinkKit } from '../../helpers/walletLinkKit'
import { useFakeQueryTime } from '../../helpers/queryTime'

await import('../../../../src/flows/deposit/linkWallet')
addEnglish(enDeposit)

const PAGE = new URL('https://shop.example.com/checkout')
const PARTNER = 'https://shop.example.com/api'
const ARB_USDC = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831'

/** A registry entry offering USDC on Base and on Arbitrum; its kit links wallets. */
const config: WidgetConfig = {
  ...depositConfig,
  chains: [...depositConfig.chains, { id: 42161, name: 'Arbitrum', rpcUrl: 'http://127.0.0.1:8546' }],
  sources: [...depositConfig.sources, { chainId: 42161, token: ARB_USDC, symbol: 'USDC', decimals: 6 }],
  partnerBase: PARTNER,
  partnerToken: 'tok-alice',
  walletLink: true,
}

// The real kit, reading crypto deposits from Arbitrum only.
const kit = walletLinkKit(PARTNER, PAGE.origin, { 42161: { rpcUrl: 'http://127.0.0.1:8546' } })

let clock: FakeClock
let announced: ReturnType<typeof announceWallet>
let chain: ReturnType<typeof fakeChain>
let driver: DepositDriver | undefined
let target: Window

beforeEach(() => {
  clock = createFakeClock(START)
  useFakeQueryTime(clock)
  target = Object.assign(new EventTarget(), { location: PAGE }) as unknown as Window
  chain = fakeChain()
  announced = announceWallet(target, { request: async ({ method }) => Promise.reject(new Error(`provider: ${method}`)) })
  // The browser's request, as the page sends it (its Origin), to the real kit.
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) =>
    kit(
      new Request(String(input), {
        method: init?.method,
        body: init?.body as string,
        headers: { ...(init?.headers as Record<string, string>), Origin: PAGE.origin },
      }),
    ),
  )
})
afterEach(() => {
  driver?.dispose()
  driver = undefined
  announced.stop()
  vi.unstubAllGlobals()
})

describe('a kit that reads some of the offered source chains, not this one', () => {
  it('the kit takes deposits from Arbitrum: its wallet check answers a message to sign', async () => {
    const res = await fetch(`${PARTNER}/deposit/wallet`, {
      method: 'POST',
      headers: { Authorization: 'Bearer tok-alice', 'Content-Type': 'application/json' },
      body: JSON.stringify({ address: BUYER, chainId: 42161 }),
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ linked: false, message: expect.stringContaining('Chain ID: 42161') })
  })

  const atQuote = (): DepositState => quotedDeposit(sessionOf(announced.wallet))
  const state = () => driver!.state() as Extract<DepositState, { tag: 'quote' }>
  const context = { flow: 'deposit' as const, chain: 'Base', symbol: 'USDC', amount: '25.5' }

  it('paying from Base: told this shop takes no crypto deposits from Base, and to choose the other "Pay from" option; nothing sent, nothing lost', async () => {
    driver = driveDeposit(atQuote(), { config, api: fakeApi(), target, clock, loadChainActions: chain.load })
    driver.dispatch({ type: 'CONFIRM' })
    await until(() => state().work === 'idle' && state().notice !== undefined, 'the notice')
    expect(chain.prompts).toEqual([])
    expect(state()).toMatchObject({
      tag: 'quote',
      notice: { kind: 'check', problem: { key: 'link.chainNotTakenChoose', code: 'chain_not_configured' } },
      amount: '25.5',
      quote: depositQuote(START),
    })
    const text = noticeText(state().notice!, context)
    expect(text).not.toMatch(/not ready to take crypto deposits/)
    expect(text).not.toMatch(/Try again later/)
    expect(text).toBe('This shop does not take crypto deposits from Base. Nothing was sent. Go back and choose another “Pay from” option.')
    expect(sendProblemCode(state().notice!)).toBe('chain_not_configured')
    // Back: the form as the buyer left it, where the other source can be chosen.
    driver.dispatch({ type: 'BACK' })
    expect(driver.state()).toMatchObject({ tag: 'form', form: { amount: '25.5', source: 0 } })
  })

  it('where the form offers no source on another chain, no option is named that does not exist', async () => {
    driver = driveDeposit(atQuote(), { config: { ...config, sources: depositConfig.sources }, api: fakeApi(), target, clock, loadChainActions: chain.load })
    driver.dispatch({ type: 'CONFIRM' })
    await until(() => state().work === 'idle' && state().notice !== undefined, 'the notice')
    expect(state().notice).toEqual({ kind: 'check', problem: { key: 'link.chainNotTaken', code: 'chain_not_configured' } })
    expect(noticeText(state().notice!, context)).toBe('This shop does not take crypto deposits from Base. Nothing was sent. Tell the site you came from.')
    expect(chain.prompts).toEqual([])
  })
})
