// Issue 13: the production build, made from test/fixtures/partners.json and served with its
// `_headers`, takes its trust from the registry and from links the partner signed, never from the URL.
import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { expect, test } from './helpers'
// @ts-expect-error: plain ESM module of the sandbox
import { signUrl } from '../test/sandbox/sign.mjs'
import { PROD_ORIGIN } from './stack'

const KEY = JSON.parse(readFileSync('test/fixtures/partners.private.json', 'utf8'))['acme-shop']
const WALLET = '0x1111111111111111111111111111111111111111'
const EVIL = '0x000000000000000000000000000000000000dEaD'
const link = (query: string, path = '/') => `${PROD_ORIGIN}${path}?${query}`

/** Every request the browser makes, from the page and its frames. */
function requests(page: Page): string[] {
  const seen: string[] = []
  page.context().on('request', (r) => seen.push(r.url()))
  return seen
}
const foreign = (urls: string[]) => urls.filter((u) => !u.startsWith(`${PROD_ORIGIN}/`) && !u.startsWith('data:'))

function consoleErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  return errors
}

async function widgetEvents(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { heard: unknown[] }
    w.heard = []
    window.addEventListener('stablecoin-widget', (e) => w.heard.push((e as CustomEvent).detail))
  })
}

const HOSTILE: Array<[string, string]> = [
  ['apiBase', 'https://api.evil.example'],
  ['partnerBase', 'https://evil.example/partner'],
  ['cardHosts', 'card.evil.example'],
  ['identityUrl', 'https://evil.example/id'],
  ['chains', JSON.stringify([{ id: 8453, name: 'Base', rpcUrl: 'https://rpc.evil.example' }])],
  ['sources', JSON.stringify([{ chainId: 8453, token: EVIL, symbol: 'USDC', decimals: 6 }])],
  ['destination', JSON.stringify({ chainId: 8453, token: EVIL, symbol: 'USDC', decimals: 6, address: EVIL })],
  ['sandbox', '1'],
]

for (const [name, value] of HOSTILE) {
  test(`a link carrying ${name} does not start: the console names it, and nothing is fetched from any other host${name === HOSTILE[0][0] ? '' : ' @extended'}`, async ({
    page,
  }) => {
    const seen = requests(page)
    const errors = consoleErrors(page)
    await page.goto(link(`partner=acme-shop&flow=deposit&${name}=${encodeURIComponent(value)}`))
    await expect(page.getByRole('heading', { name: 'This payment link is not valid', level: 1 })).toBeVisible()
    expect(errors.join('\n')).toContain(`${name}:`)
    await expect(page.getByRole('button')).toHaveCount(0)
    expect(foreign(seen)).toEqual([])
  })
}

test('a link carrying every untrusted option at once does not start, and makes no request outside the widget', async ({ page }) => {
  const seen = requests(page)
  const query = ['partner=acme-shop', 'flow=deposit', ...HOSTILE.map(([k, v]) => `${k}=${encodeURIComponent(v)}`), `walletAddress=${EVIL}`].join('&')
  await page.goto(link(query))
  await expect(page.getByRole('heading', { name: 'This payment link is not valid' })).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(foreign(seen)).toEqual([])
})

test('a signed link starts with its signed wallet; the same link with another wallet is refused before any request', async ({ page }) => {
  await widgetEvents(page)
  const good = signUrl(link(`partner=acme-shop&flow=deposit&walletAddress=${WALLET}&reference=order-7&expires=${Math.floor(Date.now() / 1000) + 600}`), KEY)
  await page.goto(good)
  await expect(page.getByRole('heading', { name: 'Connect your wallet', level: 1 })).toBeVisible()

  const seen = requests(page)
  const errors = consoleErrors(page)
  await page.goto(good.replace(WALLET, EVIL))
  await expect(page.getByRole('heading', { name: 'This payment link was changed or has expired', level: 1 })).toBeVisible()
  await expect(page.getByText('start again there')).toBeVisible()
  expect(errors.join('\n')).toContain('signature: mismatch')
  const heard = await page.evaluate(() => (window as unknown as { heard: Array<{ name: string; payload: { code?: string } }> }).heard)
  expect(heard).toContainEqual(expect.objectContaining({ name: 'error', payload: expect.objectContaining({ code: 'bad_signature' }) }))
  await page.waitForLoadState('networkidle')
  expect(foreign(seen)).toEqual([])
})

test('a walletAddress without a signature, and a signed link past its expires, are refused', async ({ page }) => {
  await page.goto(link(`partner=acme-shop&flow=card&walletAddress=${WALLET}`))
  await expect(page.getByRole('heading', { name: 'This payment link was changed or has expired' })).toBeVisible()
  const expired = signUrl(link(`partner=acme-shop&flow=card&walletAddress=${WALLET}&expires=${Math.floor(Date.now() / 1000) - 5}`), KEY)
  await page.goto(expired)
  await expect(page.getByRole('heading', { name: 'This payment link was changed or has expired' })).toBeVisible()
})

test('an unknown or missing partner gives the invalid-link page, and nothing is fetched', async ({ page }) => {
  const seen = requests(page)
  for (const query of ['partner=evil-corp&flow=deposit', 'flow=deposit']) {
    await page.goto(link(query))
    await expect(page.getByRole('heading', { name: 'This payment link is not valid' })).toBeVisible()
  }
  await page.goto(link('partner=evil-corp', '/embed.html'))
  await expect(page.getByRole('heading', { name: 'This payment link is not valid' })).toBeVisible()
  expect(foreign(seen)).toEqual([])
})

// A parent page on any origin, faked by routing: it records what reaches it, answers the frame's
// hello as the loader does, and can send commands to the frame.
function parentPage(frameSrc: string) {
  return `<!doctype html><html><head><title>parent</title></head><body>
<script>
  window.heard = []
  window.addEventListener('message', (e) => {
    window.heard.push(e.data)
    if (e.data && e.data.kind === 'hello') e.source.postMessage({ source: 'stablecoin-widget-host', version: 1, kind: 'hello' }, e.origin)
  })
  window.send = (m) => document.querySelector('iframe').contentWindow.postMessage(Object.assign({ source: 'stablecoin-widget-host', version: 1 }, m), ${JSON.stringify(PROD_ORIGIN)})
</script>
<iframe src="${frameSrc}" title="widget" style="width:420px;height:600px"></iframe></body></html>`
}

async function serveParent(page: Page, origin: string, frameSrc: string) {
  await page.route(`${origin}/**`, (route) => route.fulfill({ contentType: 'text/html', body: parentPage(frameSrc) }))
  // The partner backend the card flow reads its limits from (shop.acme.test/api in the test registry).
  await page.route('https://shop.acme.test/api/**', (route) =>
    route.fulfill({
      contentType: 'application/json',
      headers: { 'Access-Control-Allow-Origin': '*' },
      body: JSON.stringify({ fiatCurrency: 'EUR', cryptoCurrency: 'ETH', min: '20', max: '5000', environment: 'production' }),
    }),
  )
}

/**
 * The frame's page through the test's router, so Chromium's local-network checks (a public https
 * origin framing loopback) do not hide what the headers and the code do. `strip` drops the CSP, to
 * show the page's own code refuses a foreign parent too.
 */
async function embedThroughRouter(page: Page, { strip }: { strip: boolean }) {
  await page.route(`${PROD_ORIGIN}/embed.html*`, async (route) => {
    const response = await route.fetch()
    const headers = { ...response.headers() }
    if (strip) delete headers['content-security-policy']
    await route.fulfill({ response, headers })
  })
}

const FRAME = `${PROD_ORIGIN}/embed.html?partner=acme-shop&flow=card`

test('the build’s _headers stop an unregistered origin from framing embed.html at all', async ({ page }) => {
  await embedThroughRouter(page, { strip: false })
  await serveParent(page, 'https://attacker.test', FRAME)
  await page.goto('https://attacker.test/')
  const frame = page.frameLocator('iframe')
  await expect(frame.getByLabel('Total to pay')).toHaveCount(0)
  await page.waitForTimeout(500)
  expect(await page.evaluate(() => (window as unknown as { heard: unknown[] }).heard)).toEqual([])
})

test('embed.html framed by an unregistered origin posts nothing to it and ignores its update and authCode', async ({ page }) => {
  await embedThroughRouter(page, { strip: true })
  for (const src of [FRAME, `${FRAME}&parentOrigin=${encodeURIComponent('https://attacker.test')}`]) {
    await serveParent(page, 'https://attacker.test', src)
    await page.goto('https://attacker.test/')
    const frame = page.frameLocator('iframe')
    // Without the header the page renders (or refuses the unregistered parentOrigin), and stays silent.
    await expect(frame.getByRole('heading', { level: 1 })).toBeVisible()
    await page.evaluate(() => {
      const w = window as unknown as { send(m: object): void }
      w.send({ kind: 'update', options: { amount: '666' } })
      w.send({ kind: 'authCode', code: 'ac_stolen' })
      w.send({ kind: 'hello' })
    })
    await page.waitForTimeout(800)
    expect(await page.evaluate(() => (window as unknown as { heard: unknown[] }).heard)).toEqual([])
    const amount = frame.getByLabel('Total to pay')
    if (await amount.count()) await expect(amount).toHaveValue('')
  }
})

test('a registered parent hears the hello and the events, and its update is obeyed', async ({ page }) => {
  await embedThroughRouter(page, { strip: false })
  await serveParent(page, 'https://shop.acme.test', FRAME)
  await page.goto('https://shop.acme.test/checkout')
  const frame = page.frameLocator('iframe')
  await expect(frame.getByLabel('Total to pay')).toBeVisible()
  await expect.poll(() => page.evaluate(() => (window as unknown as { heard: Array<{ kind: string }> }).heard.map((m) => m.kind))).toContain('event')
  const kinds = await page.evaluate(() => (window as unknown as { heard: Array<{ kind: string }> }).heard.map((m) => m.kind))
  expect(kinds[0]).toBe('hello')
  await page.evaluate(() => (window as unknown as { send(m: object): void }).send({ kind: 'update', options: { amount: '75' } }))
  await expect(frame.getByLabel('Total to pay')).toHaveValue('75')
})
