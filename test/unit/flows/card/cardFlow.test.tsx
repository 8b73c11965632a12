// @vitest-environment happy-dom
// Issue 15 on the card flow as a whole: items 4 (prefilled amounts in a comma locale), 14 (the
// quote event's fees) and 15 (no default asset).
// As a page runs once its first screen is up: the stored-record checks and the answers' schemas are here.
import '../../setup/afterFirstScreen'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { CardQuote } from '../../../../src/api/schemas'
import { readConfig } from '../../../../src/config/config'
import CardFlow from '../../../../src/flows/card/CardFlow'
import { servicesOf } from '../../helpers/services'

const quote: CardQuote = {
  cryptoAmount: '0.00777',
  cryptoCurrency: 'ETH',
  fiatAmount: '23.31',
  rate: '3000',
  providerFee: '1.99',
  ourFee: '0.20',
  total: '25.5',
  expiresAt: new Date(Date.now() + 60_000).toISOString(),
  environment: 'sandbox',
}

let partnerUrls: string[] = []
beforeEach(() => {
  partnerUrls = []
  localStorage.clear()
  vi.stubGlobal('fetch', async (url: string) => {
    partnerUrls.push(url)
    const u = new URL(url)
    const body = {
      fiatCurrency: u.searchParams.get('fiatCurrency'),
      cryptoCurrency: u.searchParams.get('cryptoCurrency'),
      min: '10',
      max: '1000',
      environment: 'sandbox',
    }
    return new Response(JSON.stringify(body), { status: 200 })
  })
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function setup(query: string, navigatorLanguage = 'en') {
  const result = readConfig(`?apiBase=https://api.example.com&partnerBase=https://shop.example/api&flow=card&${query}`, navigatorLanguage)
  if (!result.ok) throw new Error(result.problem)
  const config = result.config
  const post = vi.fn(async (_path: string, _body: unknown) => quote)
  const events: Array<{ name: string; payload: Record<string, unknown> }> = []
  const services = servicesOf(config, post, (name, payload) => void events.push({ name, payload }))
  render(<CardFlow services={services} onStep={() => {}} />)
  return { post, events, services }
}

const amountInput = () => screen.getByLabelText('Total to pay') as HTMLInputElement

describe('a prefilled amount in a comma locale', () => {
  for (const [name, query, language] of [
    ['locale=de', 'locale=de&amount=25.50&lockAmount=1&cardCrypto=ETH', 'en'],
    ['a German browser with no locale option', 'amount=25.50&lockAmount=1&cardCrypto=ETH', 'de-DE'],
  ] as const) {
    it(`${name}: shows 25,50 and quotes exactly 25.5 with the amount locked`, async () => {
      const { post } = setup(query, language)
      expect(amountInput().value).toBe('25,50')
      expect(amountInput().readOnly).toBe(true)
      fireEvent.click(screen.getByRole('button', { name: 'See what you get' }))
      await waitFor(() => expect(post).toHaveBeenCalled())
      expect(post.mock.calls[0]![0]).toBe('/card/quote')
      expect(post.mock.calls[0]![1]).toEqual({ fiatCurrency: 'EUR', fiatAmount: '25.5' })
    })
  }

  it('update({ amount: "80.5" }) shows 80,5 in German and is accepted', async () => {
    const { post, services } = setup('locale=de&cardCrypto=ETH')
    services.live.value = { ...services.live.value, amount: '80.5' }
    await waitFor(() => expect(amountInput().value).toBe('80,5'))
    fireEvent.click(screen.getByRole('button', { name: 'See what you get' }))
    await waitFor(() => expect(post).toHaveBeenCalled())
    expect(post.mock.calls[0]![1]).toEqual({ fiatCurrency: 'EUR', fiatAmount: '80.5' })
  })
})

describe('the quote event carries both fees', () => {
  it('providerFee and ourFee, and fee as their exact sum', async () => {
    const { events } = setup('amount=25.5&cardCrypto=ETH')
    fireEvent.click(screen.getByRole('button', { name: 'See what you get' }))
    await waitFor(() => expect(events.some((e) => e.name === 'quote')).toBe(true))
    const payload = events.find((e) => e.name === 'quote')!.payload
    expect(payload).toMatchObject({ providerFee: '1.99', ourFee: '0.20', fee: '2.19', amountIn: '25.5', amountOut: '0.00777', currencyOut: 'ETH' })
  })
})

describe('no default asset', () => {
  it('without cardCrypto no limits are asked for an assumed asset; after a quote they are asked for the quoted one', async () => {
    setup('amount=25.5')
    await new Promise((r) => setTimeout(r, 20))
    expect(partnerUrls.filter((u) => /cryptoCurrency=USDC/.test(u))).toEqual([])
    fireEvent.click(screen.getByRole('button', { name: 'See what you get' }))
    await screen.findByRole('button', { name: 'Back' })
    fireEvent.click(screen.getByRole('button', { name: 'Back' }))
    await waitFor(() => expect(partnerUrls.some((u) => /\/card\/limits\?fiatCurrency=EUR&cryptoCurrency=ETH$/.test(u))).toBe(true))
    await screen.findByText(/Between 10 and 1,000 EUR/)
  })

  it('with cardCrypto the limits are asked for it at once', async () => {
    setup('amount=25.5&cardCrypto=ETH')
    await waitFor(() => expect(partnerUrls).toEqual(['https://shop.example/api/card/limits?fiatCurrency=EUR&cryptoCurrency=ETH']))
  })
})

describe("over the site's per-user limit", () => {
  it("a purchase the kit refuses with 429 user_limit_reached shows the site's limit in words, with a way on, and is not asked again", async () => {
    const kitCalls: string[] = []
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      const u = new URL(url)
      if (init?.method === 'POST') {
        kitCalls.push(u.pathname)
        return new Response(JSON.stringify({ error: { code: 'user_limit_reached', message: "This user's limit is reached: at most 2 per day." } }), {
          status: 429,
        })
      }
      return new Response(JSON.stringify({ fiatCurrency: 'EUR', cryptoCurrency: 'ETH', min: '10', max: '1000', environment: 'sandbox' }), { status: 200 })
    })
    setup('amount=25.5&cardCrypto=ETH')
    fireEvent.click(screen.getByRole('button', { name: 'See what you get' }))
    fireEvent.input(await screen.findByLabelText('Wallet address that receives the crypto'), { target: { value: `0x${'1'.repeat(40)}` } })
    fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }))
    await screen.findByText(
      "You have reached this site's limit for payments in a day. Nothing was started. Try again tomorrow or with a smaller amount, or contact the site.",
    )
    expect(screen.queryByText(/Waiting for the network/)).toBeNull()
    // A way on: the buyer can go back to the amount (and try a smaller one).
    expect(screen.getByRole('button', { name: 'Back' })).toBeTruthy()
    await new Promise((r) => setTimeout(r, 300))
    expect(kitCalls).toEqual(['/api/card/kyc-token'])
  })
})
