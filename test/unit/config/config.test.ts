import { describe, expect, it } from 'vitest'
import { FLOW_NEEDS, chainOf, explorerTxUrl, isSandboxApi, readConfig, flows } from '../../../src/config/config'
import { parseLiveOptions } from '../../../src/config/live'

const q = (params: Record<string, string>) => `?${new URLSearchParams(params)}`
const BASE = { apiBase: 'https://api.partner.example' }
const TOKEN = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'

function ok(search: string) {
  const result = readConfig(search)
  if (!result.ok) throw new Error(`expected ok, got ${result.problem}`)
  return result.config
}

function problem(search: string) {
  const result = readConfig(search)
  if (result.ok) throw new Error('expected a configuration problem')
  return result.problem
}

describe('readConfig', () => {
  it('reads good parameters and fills defaults', () => {
    const config = ok(
      q({
        ...BASE,
        flow: 'deposit',
        locale: 'de',
        currencies: 'EUR, USD',
        chains: JSON.stringify([{ id: 10, name: 'Optimism', explorerUrl: 'https://optimistic.etherscan.io' }]),
        sources: JSON.stringify([{ chainId: 10, token: TOKEN, symbol: 'USDC', decimals: 6 }]),
      }),
    )
    expect(config).toMatchObject({
      flow: 'deposit',
      apiBase: 'https://api.partner.example',
      sandbox: false,
      locale: 'de',
      fiatCurrencies: ['EUR', 'USD'],
      sources: [{ chainId: 10, token: TOKEN, symbol: 'USDC', decimals: 6 }],
      cardHosts: [],
      cardCrypto: undefined,
      defaultDestination: { chainId: 42161, symbol: 'USDC', decimals: 6 },
    })
    // given chains first, defaults merged in behind them
    expect(config.chains.map((c) => c.id)).toEqual([10, 8453, 42161])
    expect(explorerTxUrl(chainOf(config, 10), '0xabc')).toBe('https://optimistic.etherscan.io/tx/0xabc')
    expect(chainOf(config, 999)).toEqual({ id: 999, name: 'Chain 999' })
  })

  it('uses the navigator language and default sources when none are given', () => {
    const result = readConfig(q(BASE), 'fr-FR')
    expect(result).toMatchObject({ ok: true, config: { locale: 'fr-FR', fiatCurrencies: ['EUR', 'USD', 'GBP'] } })
    expect(result.ok && result.config.sources[0]?.chainId).toBe(8453)
    expect(result.ok && result.config.flow).toBeUndefined()
  })

  it.each([
    ['missing', {}],
    ['empty', { apiBase: '' }],
    ['javascript:', { apiBase: 'javascript:alert(1)' }],
    ['data:', { apiBase: 'data:text/html,hi' }],
    ['relative', { apiBase: '/api' }],
  ])('refuses a %s apiBase', (_, params) => {
    expect(problem(q(params))).toMatch(/^apiBase/)
  })

  it('refuses bad JSON in chains, sources and destination', () => {
    expect(problem(q({ ...BASE, chains: '[{id:1' }))).toMatch(/^chains/)
    expect(problem(q({ ...BASE, sources: 'not json' }))).toMatch(/^sources/)
    expect(problem(q({ ...BASE, destination: '{' }))).toMatch(/^destination/)
  })

  it('refuses well-formed JSON of the wrong shape', () => {
    expect(problem(q({ ...BASE, chains: JSON.stringify([{ id: -1, name: 'x' }]) }))).toMatch(/^chains/)
    expect(problem(q({ ...BASE, sources: JSON.stringify([{ chainId: 1, token: '0x12', symbol: 'X', decimals: 6 }]) }))).toMatch(/^sources/)
    expect(problem(q({ ...BASE, currencies: 'eur' }))).toMatch(/^fiatCurrencies/)
  })

  it('refuses an unknown flow', () => {
    expect(problem(q({ ...BASE, flow: 'sell' }))).toMatch(/^flow/)
  })

  it('requires the partner backend and the identity page for the bank deposit and the payout', () => {
    expect(problem(q({ ...BASE, flow: 'bankDeposit', identityUrl: 'https://id.example/' }))).toMatch(/^partnerBase: required/)
    expect(problem(q({ ...BASE, flow: 'payout', partnerBase: 'https://shop.example/api' }))).toMatch(/^identityUrl: required/)
    expect(ok(q({ ...BASE, flow: 'payout', partnerBase: 'https://shop.example/api', identityUrl: 'https://id.example/' })).flow).toBe('payout')
  })

  // FLOW_NEEDS (the start screen's choices, the page's drawn first screen) says what this check does.
  it.each(flows)('%s starts exactly when it has what FLOW_NEEDS names', (flow) => {
    const have = { partnerBase: 'https://partner.example/api', identityUrl: 'https://id.example/' }
    for (const partnerBase of [false, true]) {
      for (const identityUrl of [false, true]) {
        const given = { partnerBase, identityUrl }
        const params = { ...BASE, flow, ...(partnerBase ? { partnerBase: have.partnerBase } : {}), ...(identityUrl ? { identityUrl: have.identityUrl } : {}) }
        expect(readConfig(q(params)).ok, `${flow} with ${JSON.stringify(given)}`).toBe(FLOW_NEEDS[flow].every((need) => given[need]))
      }
    }
  })

  it('requires identityUrl for onboarding and partnerBase for card', () => {
    expect(problem(q({ ...BASE, flow: 'onboarding' }))).toMatch(/^identityUrl/)
    expect(problem(q({ ...BASE, flow: 'card' }))).toMatch(/^partnerBase/)
    expect(ok(q({ ...BASE, flow: 'card', partnerBase: 'https://partner.example/api' })).flow).toBe('card')
  })

  it.each([
    ['http://localhost:8787', true],
    ['http://127.0.0.1:8787', true],
    ['https://sandbox.api.example', true],
    ['https://api.sandbox.example', true],
    ['https://api.partner.example', false],
    ['https://mysandbox.example', false],
    ['https://sandboxes.example.com', false],
  ])('detects sandbox for %s: %s', (apiBase, sandbox) => {
    expect(isSandboxApi(apiBase)).toBe(sandbox)
    expect(ok(q({ apiBase })).sandbox).toBe(sandbox)
  })

  it('sandbox=1 forces sandbox on a production-looking host', () => {
    expect(ok(q({ ...BASE, sandbox: '1' })).sandbox).toBe(true)
    expect(ok(q({ ...BASE, sandbox: '0' })).sandbox).toBe(false)
  })

  it('refuses a locale option that is not a language tag, naming it; a broken browser language falls back to en', () => {
    expect(problem(q({ ...BASE, locale: 'not a locale!!' }))).toMatch(/^locale: must be a language tag/)
    expect(readConfig(q(BASE), '!!')).toMatchObject({ ok: true, config: { locale: 'en' } })
    expect(readConfig(q(BASE), 'pt-BR')).toMatchObject({ ok: true, config: { locale: 'pt-BR' } })
  })

  it('refuses a parentOrigin that is not an origin', () => {
    expect(problem(q({ ...BASE, parentOrigin: 'https://partner.example/page' }))).toMatch(/^parentOrigin/)
    expect(ok(q({ ...BASE, parentOrigin: 'https://partner.example' })).parentOrigin).toBe('https://partner.example')
  })
})

describe('parseLiveOptions (update without a remount)', () => {
  it('takes amount, theme, brand, locale and authCode', () => {
    expect(parseLiveOptions({ amount: '80', theme: 'dark', brand: { color: '#0a7d4f' }, locale: 'de', authCode: 'ac_1' })).toEqual({
      ok: true,
      update: { amount: '80', theme: 'dark', brand: { color: '#0a7d4f' }, locale: 'de', authCode: 'ac_1' },
    })
  })

  it.each([
    [{ amount: '1e3' }, 'amount'],
    [{ amount: 80 }, 'amount'],
    [{ theme: 'purple' }, 'theme'],
    [{ locale: 'xx_YY!' }, 'locale'],
    [{ brand: { color: 'red; background: url(x)' } }, 'brand.color'],
    [{ apiBase: 'https://evil.example' }, 'apiBase: cannot change after mounting'],
    [{ flow: 'card' }, 'flow: cannot change after mounting'],
  ])('refuses %j, naming %s', (options, name) => {
    const result = parseLiveOptions(options)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.problem).toMatch(new RegExp(`^${name.replace('.', '\\.')}`))
  })
})
