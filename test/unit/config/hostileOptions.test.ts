// Hostile options (checked without zod): what a link, a page's data attributes or a frame parent's
// postMessage may try. Every test asserts the safe behaviour.
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseOptions, readConfig } from '../../../src/config/config'
import { parseLiveOptions } from '../../../src/config/live'
import { type RegistryEntry, resolveLink } from '../../../src/config/link'

const registry: RegistryEntry[] = JSON.parse(readFileSync('test/fixtures/partners.json', 'utf8'))
const entry = registry[0]
const NOW = Date.UTC(2026, 10, 23, 12)
const EVIL = '0x000000000000000000000000000000000000dEaD'
const API = 'https://api.payments.test'

afterEach(() => vi.restoreAllMocks())
const quiet = () => vi.spyOn(console, 'warn').mockImplementation(() => {})

describe('links: a URL never decides where money, card details or identity go', () => {
  it.each([
    ['apiBase', 'https://evil.test'],
    ['partnerBase', 'https://evil.test'],
    ['identityUrl', 'https://evil.test/id'],
    ['cardHosts', 'evil.test'],
    ['chains', JSON.stringify([{ id: 8453, name: 'Base', routers: [EVIL] }])],
    ['sources', JSON.stringify([{ chainId: 8453, token: EVIL, symbol: 'USDC', decimals: 6 }])],
    ['destination', JSON.stringify({ chainId: 42161, token: EVIL, symbol: 'USDC', decimals: 6, address: EVIL })],
    ['routers', EVIL],
    ['sandbox', '1'],
    ['partnerCookies', '1'],
    ['timings', JSON.stringify({ pollMs: 50 })],
  ])('%s in a link: refused', async (key, value) => {
    const link = await resolveLink(`?partner=acme-shop&flow=deposit&${key}=${encodeURIComponent(value)}`, registry, NOW)
    expect(link).toMatchObject({ ok: false, code: 'forbidden_option' })
  })

  it.each(['apibase', 'api-base', 'ApiBase', 'api_base', 'apiBase%20', '%61piBase', 'partner-base', 'identity-url', 'walletaddress'])(
    'a look-alike key (%s) never reaches the config: the registry value stays',
    async (key) => {
      quiet()
      const link = await resolveLink(`?partner=acme-shop&flow=deposit&${key}=https%3A%2F%2Fevil.test`, registry, NOW)
      if (!link.ok) return // refusing it outright is safe too
      const parsed = parseOptions(link.options)
      expect(parsed.ok).toBe(true)
      if (!parsed.ok) return
      expect(parsed.config.apiBase).toBe(entry.apiBase)
      expect(parsed.config.partnerBase).toBe(entry.partnerBase)
      expect(parsed.config.identityUrl).toBe(entry.identityUrl)
      expect(parsed.config.walletAddress).toBeUndefined()
    },
  )

  it.each([
    ['walletAddress', EVIL],
    ['destinationAddress', EVIL],
    ['reference', 'order-1'],
    ['partnerToken', 'tok'],
  ])('%s without the partner signature: refused', async (key, value) => {
    expect(await resolveLink(`?partner=acme-shop&flow=deposit&${key}=${value}`, registry, NOW)).toMatchObject({ ok: false, code: 'bad_signature' })
  })

  it('a locked amount needs the signature (lockAmount written as 1, true or empty)', async () => {
    for (const lock of ['lockAmount=1', 'lockAmount=true', 'lockAmount']) {
      expect(await resolveLink(`?partner=acme-shop&flow=deposit&amount=5&${lock}`, registry, NOW)).toMatchObject({ ok: false, code: 'bad_signature' })
    }
  })

  it.each([
    'https://evil.test/',
    'javascript:alert(1)',
    'data:text/html,hi',
    'https://shop.acme.test.evil.test/',
    'https://evil.test\\@shop.acme.test/',
    'http://shop.acme.test/',
    '//evil.test',
  ])('returnUrl %s outside the registered origins: refused unsigned', async (url) => {
    expect(await resolveLink(`?partner=acme-shop&flow=deposit&returnUrl=${encodeURIComponent(url)}`, registry, NOW)).toMatchObject({ ok: false })
  })

  it('a key given twice is refused (no last-wins override)', async () => {
    expect(await resolveLink('?partner=acme-shop&flow=deposit&amount=1&amount=1000', registry, NOW)).toMatchObject({ ok: false })
    expect(await resolveLink('?partner=acme-shop&partner=other&flow=deposit', registry, NOW)).toMatchObject({ ok: false })
  })

  it('a parentOrigin not registered for the partner: refused', async () => {
    for (const origin of ['https://evil.test', 'https://shop.acme.test/', 'https://shop.acme.test.evil.test', 'https://x@shop.acme.test']) {
      expect(await resolveLink(`?partner=acme-shop&parentOrigin=${encodeURIComponent(origin)}`, registry, NOW)).toMatchObject({ ok: false })
    }
  })
})

describe('parseOptions: types, numbers and amounts', () => {
  const base = { apiBase: API }

  it.each(['1e5', '1E5', '-1', '+1', '1.', '.5', 'NaN', 'Infinity', '0x10', ' 1', '1 ', '1_000', '1,5', '١٢', '１２', '𝟏𝟐', '12\n', '\u200b12'])(
    'amount %j: refused',
    (amount) => {
      expect(parseOptions({ ...base, amount }).ok).toBe(false)
    },
  )

  it.each([12, 1e5, Number.NaN, ['12'], { toString: () => '12' }, new String('12'), true])('amount of another type (%s): refused', (amount) => {
    expect(parseOptions({ ...base, amount }).ok).toBe(false)
  })

  it.each([['javascript:alert(1)'], ['data:text/html,hi'], ['//evil.test'], ['ftp://evil.test'], ['/api'], ['https://']])('apiBase %s: refused', (apiBase) => {
    expect(parseOptions({ apiBase }).ok).toBe(false)
  })

  it.each([
    ['apiBase', [API]],
    ['apiBase', new URL(API)],
    ['partnerBase', { href: API }],
    ['flow', ['card']],
    ['theme', ['dark']],
    ['locale', ['de']],
  ])('%s of another type: refused', (key, value) => {
    expect(parseOptions({ ...base, [key]: value }).ok).toBe(false)
  })

  it.each([
    'Ox833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', // letter O
    '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA0291З', // Cyrillic Ze
    '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA0291３', // full-width 3
    '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\n',
    ' 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  ])('walletAddress look-alike %j: refused', (walletAddress) => {
    expect(parseOptions({ ...base, walletAddress }).ok).toBe(false)
  })

  it.each([Number.NaN, Number.POSITIVE_INFINITY, -1, 0, 1.5, 2 ** 53, '8453'])('chain id %s: refused', (id) => {
    expect(parseOptions({ ...base, chains: [{ id, name: 'X' }] }).ok).toBe(false)
  })

  it.each([-1, 37, 6.5, Number.NaN, '6'])('token decimals %s: refused', (decimals) => {
    expect(parseOptions({ ...base, sources: [{ chainId: 8453, token: EVIL, symbol: 'USDC', decimals }] }).ok).toBe(false)
  })

  it.each([Number.NaN, Number.POSITIVE_INFINITY, -1, 33])('brand radius %s: refused', (radius) => {
    expect(parseOptions({ ...base, brand: { radius } }).ok).toBe(false)
  })

  it('timings out of range (even in a sandbox build): refused', () => {
    for (const pollMs of [0, 49, 600_001, Number.NaN, -50, 1.5]) expect(parseOptions({ ...base, sandbox: true, timings: { pollMs } }).ok).toBe(false)
  })

  it.each(['x; background:url(https://evil.test)', 'x}body{display:none', 'x(', 'x\\', 'x'.repeat(121)])('brand font %j: refused', (font) => {
    expect(parseOptions({ ...base, brand: { font } }).ok).toBe(false)
  })
})

describe('prototype keys in JSON options', () => {
  it('"__proto__" in a JSON option pollutes nothing and adds no field', () => {
    const parsed = readConfig(
      `?apiBase=${encodeURIComponent(API)}&brand=${encodeURIComponent('{"__proto__":{"color":"#000"},"constructor":{"prototype":{"polluted":1}}}')}` +
        `&chains=${encodeURIComponent(JSON.stringify([{ id: 8453, name: 'Base', __proto__: { routers: [EVIL] } }]).replace('"__proto__"', '"__proto__"'))}`,
    )
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(({} as Record<string, unknown>).color).toBeUndefined()
    expect(parsed.ok).toBe(true)
    if (!parsed.ok) return
    expect(parsed.config.brand).toEqual({})
    expect(Object.getPrototypeOf(parsed.config.brand)).toBe(Object.prototype)
    expect(parsed.config.chains.find((c) => c.id === 8453)?.routers).toBeUndefined()
  })

  it('a chain with "__proto__": {routers} written by JSON.parse gets no router', () => {
    const chains = JSON.parse(`[{"id":8453,"name":"Base","__proto__":{"routers":["${EVIL}"]}}]`)
    const parsed = parseOptions({ apiBase: API, chains })
    expect(parsed.ok && parsed.config.chains[0].routers).toBeUndefined()
  })
})

describe('live options (update(), a frame parent’s postMessage)', () => {
  it.each([
    ['apiBase', 'https://evil.test'],
    ['partnerBase', 'https://evil.test'],
    ['identityUrl', 'https://evil.test'],
    ['walletAddress', EVIL],
    ['returnUrl', 'https://evil.test'],
    ['reference', 'x'],
    ['lockAmount', false],
    ['flow', 'card'],
    ['chains', []],
    ['parentOrigin', 'https://evil.test'],
    ['sandbox', true],
    ['timings', { pollMs: 50 }],
  ])('%s: refused after mounting', (key, value) => {
    expect(parseLiveOptions({ [key]: value }).ok).toBe(false)
  })

  it.each(['1e3', '-5', 'NaN', '١٢', 12])('amount %j: refused', (amount) => {
    expect(parseLiveOptions({ amount }).ok).toBe(false)
  })

  it('a structured-clone copy with an own "__proto__" carries nothing through', () => {
    const options = JSON.parse('{"__proto__":{"amount":"999"}}')
    const result = parseLiveOptions(options)
    expect(result.ok && result.update.amount).toBeFalsy()
  })
})

describe('an amount option has a sane length (a 5,000-digit decimal is no amount anyone pays)', () => {
  const huge = '9'.repeat(5_000)
  it.each([huge, `1.${'0'.repeat(5_000)}`, '1'.repeat(21)])('refused as an option and as a live update: %#', (amount) => {
    expect(parseOptions({ apiBase: 'https://api.payments.test', amount }).ok).toBe(false)
    expect(parseLiveOptions({ amount }).ok).toBe(false)
  })
  it.each(['25', '25.50', `${'9'.repeat(20)}.${'1'.repeat(18)}`])('kept: %s', (amount) => {
    expect(parseOptions({ apiBase: 'https://api.payments.test', amount })).toMatchObject({ ok: true })
    expect(parseLiveOptions({ amount })).toMatchObject({ ok: true, update: { amount } })
  })
})
