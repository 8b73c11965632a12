// Signed links on the production build (its registry is test/fixtures/partners.json): the ECDSA
// signature is checked by the engine's WebCrypto. Twins of tests in e2e/trust.spec.ts.
import { readFileSync } from 'node:fs'
import { PROD_ORIGIN } from '../e2e/stack'
// @ts-expect-error: plain ESM module of the sandbox
import { signUrl } from '../test/sandbox/sign.mjs'
import { expect, test } from './fixtures'

const KEY = JSON.parse(readFileSync('test/fixtures/partners.private.json', 'utf8'))['acme-shop']
const WALLET = '0x1111111111111111111111111111111111111111'
const EVIL = '0x000000000000000000000000000000000000dEaD'
const link = (query: string) => `${PROD_ORIGIN}/?${query}`

test('a signed link starts with its signed wallet; the same link with another wallet, or unsigned, or expired, is refused', {
  tag: ['@npm:firefox', '@npm:webkit'],
}, async ({ page }) => {
  // A link with a reference must expire (issue 28, item 5).
  const expires = Math.floor(Date.now() / 1000) + 600
  const good: string = signUrl(link(`partner=acme-shop&flow=deposit&walletAddress=${WALLET}&reference=order-7&expires=${expires}`), KEY)
  await page.goto(good)
  await expect(page.getByRole('heading', { name: 'Connect your wallet', level: 1 })).toBeVisible()
  expect(await page.errors()).toEqual([])

  const refused = page.getByRole('heading', { name: 'This payment link was changed or has expired', level: 1 })
  await page.goto(good.replace(WALLET, EVIL))
  await expect(refused).toBeVisible()
  await expect(page.getByText('start again there')).toBeVisible()
  await expect(page.getByRole('button')).toHaveCount(0)

  await page.goto(link(`partner=acme-shop&flow=card&walletAddress=${WALLET}`))
  await expect(refused).toBeVisible()
  await page.goto(signUrl(link(`partner=acme-shop&flow=card&walletAddress=${WALLET}&expires=${Math.floor(Date.now() / 1000) - 5}`), KEY))
  await expect(refused).toBeVisible()
})

test('a link carrying an apiBase of its own does not start', async ({ page }) => {
  await page.goto(link(`partner=acme-shop&flow=deposit&apiBase=${encodeURIComponent('https://api.evil.example')}`))
  await expect(page.getByRole('heading', { name: 'This payment link is not valid', level: 1 })).toBeVisible()
  await expect(page.getByRole('button')).toHaveCount(0)
})
