// @vitest-environment happy-dom
// The page's first screen (src/embed/firstPaint.mjs, issue 19): drawn from the templates the build
// renders (src/embed/firstScreens.tsx) only for a plain link, and handed over to the app with what
// the buyer did on it. The "app" here is markup appended to #app as mountWidget does.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { firstPaint } from '../../../src/embed/firstPaint.mjs'
import { firstPaintData, firstScreens, walletList } from '../../../src/embed/firstScreens'
import { RATE_SLOTS_KEY } from '../../../src/rateLimit/rateLimiter'
import { USED_CODES_KEY } from '../../../src/identity/usedCodes'
import { DRAFT_KEY } from '../../../src/identity/checks'
import { scopedStorage } from '../../../src/storage/safeStorage'
import { flowKey } from '../../../src/storage/storedCheck'

const data = { ...firstPaintData({ sandbox: true }), catalogs: ['de', 'es', 'fr', 'pt-BR'] }
const screens = firstScreens({ sandbox: false, closable: false })
const entry = { id: 'acme', apiBase: 'https://api.example', partnerBase: 'https://partner.example', identityUrl: 'https://id.example' }
/** The storage of partner `acme` on its service, as the app reads and writes it. */
const acme = (storage: Storage) => scopedStorage(storage, { partner: entry.id, apiBase: entry.apiBase })!

function page(search: string, registry: object[] = [entry], d = data) {
  history.replaceState(null, '', `/${search}`)
  document.head.innerHTML = `<script type="application/json" id="stablecoin-widget-partners">${JSON.stringify(registry)}</script>`
  document.body.innerHTML =
    '<div id="app"></div>' +
    Object.entries(screens)
      .map(([flow, html]) => `<template id="sw-first-${flow}">${html}</template>`)
      .join('') +
    `<template id="sw-wallets">${walletList()}</template>`
  firstPaint(d)
  return document.getElementById('app') as HTMLElement
}
const drawn = () => document.querySelector<HTMLElement>('[data-first-screen]')
const flush = () => new Promise((r) => setTimeout(r, 0))

/** What mountWidget puts into #app: an element, then the app's render inside it. */
function appRenders(root: HTMLElement, inner: string) {
  const app = document.createElement('div')
  app.innerHTML = `<div class="widget"><main>${inner}</main><p class="live" role="status"></p></div>`
  root.append(app)
  return app
}
const cardForm =
  '<section><h1>How much do you want to pay?</h1><form><select id="currency"><option>EUR</option><option>USD</option></select><input id="total"><button type="submit">See what you get</button></form></section>'

beforeEach(() => {
  localStorage.clear()
  sessionStorage.clear()
})
afterEach(() => vi.useRealTimers())

describe('the page draws the first screen only where the app would draw the same', () => {
  it.each(['card', 'onboarding', 'deposit'])('draws %s for a plain signed link', (flow) => {
    page(`?partner=acme&flow=${flow}&currencies=EUR%2CUSD%2CGBP&cardCrypto=ETH&reference=r1&signature=abc`)
    expect(drawn()?.querySelector('h1')?.textContent).toBeTruthy()
  })

  it.each([
    ['an amount', '&amount=5'],
    ['a brand', '&brand=%7B%7D'],
    ['a signed wallet', '&walletAddress=0x0000000000000000000000000000000000000001'],
    ['a theme that is none', '&theme=neon'],
    ['currencies that are not ISO codes', '&currencies=EUR,usd'],
    ['a locale with a catalog', '&locale=de-AT'],
    ['a locale by its language', '&locale=pt'],
    ['a registry-only option', '&apiBase=https%3A%2F%2Fevil.example'],
    ['an unknown option', '&whatever=1'],
    // From the second attacker's review: the app refuses a repeated option.
    ['a repeated option', '&currencies=USD&currencies=EUR'],
    ['a repeated flow', '&flow=card'],
  ])('draws nothing for a link with %s', (_, extra) => {
    page(`?partner=acme&flow=card${extra}`)
    expect(drawn()).toBeNull()
  })

  it('draws nothing for an unknown partner, a flow without a template, or one the entry does not offer', () => {
    for (const search of [
      '?partner=other&flow=card',
      '?partner=acme&flow=constructor',
      '?partner=acme&flow=__proto__',
      '?partner=acme&flow=payout',
      '?partner=acme',
    ]) {
      page(search)
      expect(drawn()).toBeNull()
    }
    page('?partner=acme&flow=card', [{ id: 'acme' }])
    expect(drawn()).toBeNull()
    page('?partner=acme&flow=onboarding', [{ id: 'acme', partnerBase: 'https://partner.example' }])
    expect(drawn()).toBeNull()
  })

  it('draws a flow only where the entry offers it', () => {
    const production = { ...data, flows: firstPaintData({ sandbox: false }).flows }
    page('?partner=acme&flow=onboarding', [entry], production)
    expect(drawn()).toBeNull()
    page('?partner=acme&flow=card', [entry], production)
    expect(drawn()).not.toBeNull()
    page('?partner=acme&flow=onboarding', [{ ...entry, flows: ['onboarding'] }], production)
    expect(drawn()).not.toBeNull()
    page('?partner=acme&flow=card', [{ ...entry, flows: ['deposit'] }])
    expect(drawn()).toBeNull()
  })

  it("draws the link's theme, and the card's currencies as its form lists them", () => {
    page('?partner=acme&flow=card&theme=dark&currencies=USD%2CMXN')
    expect(drawn()?.querySelector('.widget')?.getAttribute('data-theme')).toBe('dark')
    expect([...(drawn()?.querySelectorAll('#currency option') ?? [])].map((o) => o.textContent)).toEqual(['USD', 'MXN'])
    expect(drawn()?.querySelector<HTMLSelectElement>('#currency')?.value).toBe('USD')
    expect(drawn()?.querySelector('.unit')?.textContent).toBe('USD')
    page('?partner=acme&flow=card&currencies=GBP')
    expect(drawn()?.querySelector('#currency')).toBeNull()
    expect(drawn()?.querySelector('.unit')?.textContent).toBe('GBP')
    expect(drawn()?.querySelector('.widget')?.getAttribute('data-theme')).toBe('light')
  })

  // From the second attacker's review: the drawn unit showed EUR after the buyer chose USD.
  it("the card's unit follows the currency the buyer chooses on the drawn screen", () => {
    page('?partner=acme&flow=card&currencies=EUR%2CUSD')
    const select = drawn()?.querySelector<HTMLSelectElement>('#currency') as HTMLSelectElement
    select.value = 'USD'
    select.dispatchEvent(new Event('change', { bubbles: true }))
    expect(drawn()?.querySelector('.unit')?.textContent).toBe('USD')
  })

  it('draws in English for an English locale, and for one without a catalog', () => {
    page('?partner=acme&flow=card&locale=en-GB')
    expect(drawn()?.querySelector('.widget')?.getAttribute('lang')).toBe('en-GB')
    page('?partner=acme&flow=card&locale=nl')
    expect(drawn()).not.toBeNull()
  })

  it('draws nothing where the widget keeps a flow or a draft; the rate slots and used codes do not count', () => {
    localStorage.setItem(RATE_SLOTS_KEY, '[]')
    acme(localStorage).setItem(USED_CODES_KEY, '[]')
    page('?partner=acme&flow=card')
    expect(drawn()).not.toBeNull()
    acme(localStorage).setItem(flowKey('card'), '{}')
    page('?partner=acme&flow=card')
    expect(drawn()).toBeNull()
    localStorage.clear()
    acme(localStorage).setItem(flowKey('account'), '{}')
    page('?partner=acme&flow=onboarding')
    expect(drawn()).toBeNull()
    localStorage.clear()
    // From the attacker's review: the identity draft is kept in this tab's sessionStorage.
    acme(sessionStorage).setItem(DRAFT_KEY, '{}')
    page('?partner=acme&flow=onboarding')
    expect(drawn()).toBeNull()
    sessionStorage.clear()
  })

  it("another partner's records, the same partner's on another service, or an older widget's do not count", () => {
    const other = { partner: 'other', apiBase: entry.apiBase }
    scopedStorage(localStorage, other)!.setItem(flowKey('card'), '{}')
    scopedStorage(localStorage, other)!.setItem(flowKey('account'), '{}')
    scopedStorage(sessionStorage, other)!.setItem(DRAFT_KEY, '{}')
    scopedStorage(localStorage, { partner: entry.id, apiBase: 'https://api.example.evil' })!.setItem(flowKey('card'), '{}')
    // Never read by the app: whose it is cannot be proven.
    localStorage.setItem('stablecoin-widget:v1:flow:card', '{}')
    page('?partner=acme&flow=card')
    expect(drawn()).not.toBeNull()
    page('?partner=acme&flow=onboarding')
    expect(drawn()).not.toBeNull()
    acme(localStorage).setItem(flowKey('card'), '{}')
    page('?partner=acme&flow=card')
    expect(drawn()).toBeNull()
  })

  it('the hosted page has no close button; the drawn screen shows no server text, only its template', () => {
    page('?partner=acme&flow=card&reference=%3Cimg%20src%3Dx%3E')
    expect(drawn()?.querySelector('.close')).toBeNull()
    expect(drawn()?.innerHTML).not.toContain('<img')
  })
})

describe('the app takes over with what the buyer did', () => {
  it('keeps the drawn screen until the app has more than "Loading…", then the typed amount, the focus and the held submit go to the app', async () => {
    const root = page('?partner=acme&flow=card')
    const input = drawn()?.querySelector<HTMLInputElement>('#total') as HTMLInputElement
    input.value = '50'
    input.dispatchEvent(new Event('input', { bubbles: true }))
    input.focus()
    input.setSelectionRange(1, 1)
    const submitted = new Event('submit', { cancelable: true, bubbles: true })
    drawn()?.querySelector('form')?.dispatchEvent(submitted)
    expect(submitted.defaultPrevented).toBe(true)
    expect(drawn()?.querySelector('.live')?.textContent).toBe('Loading…')

    const app = appRenders(root, '<p role="status">Loading…</p>')
    await flush()
    expect(app.isConnected).toBe(false)
    expect(drawn()).not.toBeNull()

    const seen: string[] = []
    app.addEventListener('input', (e) => seen.push(`input ${(e.target as HTMLInputElement).id}=${(e.target as HTMLInputElement).value}`))
    app.addEventListener('submit', (e) => {
      e.preventDefault()
      seen.push('submit')
    })
    app.querySelector('main')!.innerHTML = cardForm
    await flush()
    expect(drawn()).toBeNull()
    expect(app.isConnected).toBe(true)
    expect(seen).toEqual(['input total=50', 'submit'])
    const real = app.querySelector<HTMLInputElement>('#total')
    expect(document.activeElement).toBe(real)
    expect(real?.selectionStart).toBe(1)
  })

  it('a field the buyer did not edit is not written (what the app shows there stays); no submit without one held', async () => {
    const root = page('?partner=acme&flow=card')
    const seen: string[] = []
    const app = appRenders(root, cardForm.replace('<input id="total">', '<input id="total" value="20">'))
    app.addEventListener('input', () => seen.push('input'))
    app.addEventListener('submit', () => seen.push('submit'))
    await flush()
    expect(drawn()).toBeNull()
    expect(app.querySelector<HTMLInputElement>('#total')?.value).toBe('20')
    expect(seen).toEqual([])
  })

  it('an element something else puts into #app first is not taken for the app', async () => {
    const root = page('?partner=acme&flow=card')
    const other = document.createElement('div')
    other.textContent = 'an extension'
    root.append(other)
    await flush()
    expect(other.isConnected).toBe(true)
    expect(drawn()).not.toBeNull()
    const app = appRenders(root, cardForm)
    await flush()
    expect(drawn()).toBeNull()
    expect(app.isConnected).toBe(true)
  })

  it('another screen (a resumed flow, a refused option) takes nothing', async () => {
    const root = page('?partner=acme&flow=card')
    const input = drawn()?.querySelector<HTMLInputElement>('#total') as HTMLInputElement
    input.value = '50'
    input.dispatchEvent(new Event('input', { bubbles: true }))
    drawn()
      ?.querySelector('form')
      ?.dispatchEvent(new Event('submit', { cancelable: true, bubbles: true }))
    const seen: string[] = []
    const app = appRenders(root, '<section><h1>Your purchase</h1><form><input id="total"><button type="submit">Go</button></form></section>')
    app.addEventListener('input', () => seen.push('input'))
    app.addEventListener('submit', () => seen.push('submit'))
    await flush()
    expect(drawn()).toBeNull()
    expect(app.isConnected).toBe(true)
    expect(seen).toEqual([])
  })

  it('a refused link: the app removes the drawn screen itself and nothing is hidden', async () => {
    const root = page('?partner=acme&flow=card')
    drawn()?.remove()
    const problem = document.createElement('div')
    problem.innerHTML = '<main><h1>This link does not work</h1></main>'
    root.append(problem)
    await flush()
    expect(problem.isConnected).toBe(true)
  })
})

describe("the deposit's wallets", () => {
  const announce = (info: Record<string, unknown>, provider: unknown = { request: async () => [] }) =>
    window.dispatchEvent(Object.assign(new Event('eip6963:announceProvider'), { detail: { info, provider } }))

  it('lists each wallet that announces itself once, with a data:image icon or none, its name as text', () => {
    page('?partner=acme&flow=deposit')
    expect(drawn()?.textContent).toContain('Looking for wallets')
    announce({ uuid: 'a', rdns: 'a.example', name: 'Wallet A', icon: 'data:image/svg+xml,<svg/>' })
    announce({ uuid: 'a', rdns: 'a.example', name: 'Wallet A again' })
    announce({ uuid: 'b', rdns: 'b.example', name: '<b>B</b>'.padEnd(80, 'x'), icon: 'https://tracker.example/icon.png' })
    announce({ uuid: 'c', rdns: 'c.example', name: 'No provider' }, {})
    announce({ uuid: 'd', rdns: 'd.example', name: 42 })
    const items = [...(drawn()?.querySelectorAll('ul.choices li') ?? [])]
    expect(items.map((li) => li.querySelector('span')?.textContent)).toEqual(['Wallet A', '<b>B</b>'.padEnd(60, 'x')])
    expect(items.map((li) => li.querySelector('img')?.getAttribute('src') ?? null)).toEqual(['data:image/svg+xml,<svg/>', null])
    expect(drawn()?.querySelector('b')).toBeNull()
    expect(drawn()?.textContent).not.toContain('Looking for wallets')
  })

  it("a wallet pressed is pressed on the app's screen once the app lists it", async () => {
    const root = page('?partner=acme&flow=deposit')
    announce({ uuid: 'a', rdns: 'a.example', name: 'Wallet A' })
    const press = new MouseEvent('click', { bubbles: true, cancelable: true })
    drawn()?.querySelector('ul.choices button')?.dispatchEvent(press)
    expect(press.defaultPrevented).toBe(true)
    const pressed: string[] = []
    const app = appRenders(root, '<section><h1>Connect your wallet</h1><p role="status">Looking…</p><button type="button">Look again</button></section>')
    app.addEventListener('click', (e) => pressed.push((e.target as HTMLElement).textContent ?? ''))
    await flush()
    expect(app.isConnected).toBe(false)
    app.querySelector('section')!.innerHTML =
      '<h1>Connect your wallet</h1><ul class="choices"><li><button type="button" data-wallet="a|a.example">Wallet A</button></li></ul><button type="button">Look again</button>'
    await flush()
    expect(app.isConnected).toBe(true)
    expect(pressed).toEqual(['Wallet A'])
  })

  /** The wallets the app lists (id, words), then its rescan; which of them the handover pressed. */
  async function appListsThenPressed(root: HTMLElement, wallets: ReadonlyArray<readonly [string, string]>) {
    const items = wallets.map(([id, words]) => `<li><button type="button" data-wallet="${id}">${words}</button></li>`).join('')
    const pressed: string[] = []
    const app = appRenders(root, `<section><h1>Connect your wallet</h1><ul class="choices">${items}</ul><button type="button">Look again</button></section>`)
    app.addEventListener('click', (e) => pressed.push((e.target as HTMLElement).dataset.wallet ?? 'rescan'))
    await flush()
    return pressed
  }
  const press = (button: Element | undefined | null) => button?.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }))

  // From the attacker's review: a press is replayed by the wallet's id, never by its name alone.
  it.each([
    [
      'a wallet that takes the name of the one pressed, listed first by the app, is not the one pressed',
      { uuid: 'real', rdns: 'io.metamask', name: 'MetaMask' },
      () => drawn()?.querySelector('ul.choices button'),
      [
        ['evil|io.metamask', 'MetaMask'],
        ['real|io.metamask', 'MetaMask'],
      ],
      ['real|io.metamask'],
    ],
    [
      '"Look again" pressed is the rescan, not a wallet that calls itself "Look again"',
      { uuid: 'a', rdns: 'a.example', name: 'Wallet A' },
      () => [...(drawn()?.querySelectorAll('button') ?? [])].find((b) => b.textContent === 'Look again'),
      [
        ['x|x.evil', 'Look again'],
        ['a|a.example', 'Wallet A'],
      ],
      ['rescan'],
    ],
  ] as const)('%s', async (_name, wallet, pressed, appLists, replayed) => {
    const root = page('?partner=acme&flow=deposit')
    announce(wallet)
    press(pressed())
    expect(await appListsThenPressed(root, appLists)).toEqual(replayed)
  })

  /** Wallet A pressed on the drawn screen; the app shown after a second without it; `list(heading)` then lists it. */
  async function handedOverBeforeTheWalletShows() {
    vi.useFakeTimers()
    const root = page('?partner=acme&flow=deposit')
    announce({ uuid: 'a', rdns: 'a.example', name: 'Wallet A' })
    press(drawn()?.querySelector('ul.choices button'))
    const pressed: string[] = []
    const app = appRenders(root, '<section><h1>Connect your wallet</h1><button type="button">Look again</button></section>')
    app.addEventListener('click', (e) => pressed.push((e.target as HTMLElement).dataset.wallet ?? 'rescan'))
    await vi.advanceTimersByTimeAsync(1100)
    expect(app.isConnected).toBe(true)
    const list = async (heading = 'Connect your wallet') => {
      app.querySelector('section')!.innerHTML =
        `<h1>${heading}</h1><ul class="choices"><li><button type="button" data-wallet="a|a.example">Wallet A</button></li></ul><button type="button">Look again</button>`
      await vi.advanceTimersByTimeAsync(10)
    }
    return { app, pressed, list }
  }

  it('a wallet the app lists only after that second (a slow discovery) is still pressed once it shows, once', async () => {
    const { app, pressed, list } = await handedOverBeforeTheWalletShows()
    expect(pressed).toEqual([])
    await list()
    expect(pressed).toEqual(['a|a.example'])
    app.querySelector('ul')!.append(app.querySelector('li')!.cloneNode(true))
    await vi.advanceTimersByTimeAsync(10)
    expect(pressed).toEqual(['a|a.example'])
  })

  it('the buyer acting on the app first (a key, a pointer) cancels that late press', async () => {
    const { app, pressed, list } = await handedOverBeforeTheWalletShows()
    app.querySelector('button')!.dispatchEvent(new Event('pointerdown', { bubbles: true }))
    await list()
    expect(pressed).toEqual([])
  })

  it('a wallet of that id on another screen (the app moved on) is not pressed', async () => {
    const { pressed, list } = await handedOverBeforeTheWalletShows()
    await list('Something else')
    expect(pressed).toEqual([])
  })

  it('a wallet the app never finds: the app shows after a second, and nothing is pressed', async () => {
    vi.useFakeTimers()
    const root = page('?partner=acme&flow=deposit')
    announce({ uuid: 'a', rdns: 'a.example', name: 'Wallet A' })
    drawn()
      ?.querySelector('ul.choices button')
      ?.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }))
    const pressed: string[] = []
    const app = appRenders(root, '<section><h1>Connect your wallet</h1><button type="button">Look again</button></section>')
    app.addEventListener('click', (e) => pressed.push((e.target as HTMLElement).textContent ?? ''))
    await vi.advanceTimersByTimeAsync(500)
    expect(app.isConnected).toBe(false)
    await vi.advanceTimersByTimeAsync(600)
    expect(app.isConnected).toBe(true)
    expect(drawn()).toBeNull()
    expect(pressed).toEqual([])
  })
})
