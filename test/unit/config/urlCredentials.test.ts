// URLs with a user name or password: refused in every option that takes a URL and on a link's
// returnUrl, in every spelling a browser reads as carrying them; a harmless spelling that is
// accepted carries none once parsed. Every test asserts the safe behaviour.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseOptions } from '../../../src/config/config'
import { type RegistryEntry, resolveLink } from '../../../src/config/link'

const registry: RegistryEntry[] = JSON.parse(readFileSync('test/fixtures/partners.json', 'utf8'))
const NOW = Date.UTC(2026, 10, 23, 12)

/** Every spelling a browser reads as carrying credentials (WHATWG URL, as the browser parses it). */
const withCredentials = [
  'https://%61@shop.acme.test/', // percent-encoded user
  'https://%40@shop.acme.test/', // an encoded '@' as the user
  'https://a%00@shop.acme.test/',
  'https://:x@shop.acme.test/', // a password alone
  'HTTPS://a@shop.acme.test/', // upper-case scheme
  'https:\\\\a@shop.acme.test/', // backslashes read as slashes
  'https:a@shop.acme.test/', // no slashes at all
  'https://a\t@shop.acme.test/', // a tab the parser strips
  ' https://a@shop.acme.test/', // leading space the parser strips
  'https://shop.acme.test:443@evil.test/', // the registered origin dressed up as a user:password
  'https://shöp.acme.test@shop.acme.test/', // IDN in the user part
]

/** Spellings with no credentials once parsed (an empty user is dropped by the parser). */
const harmless = ['https://@shop.acme.test/done', 'https://:@shop.acme.test/done', 'https://shop.acme.test\\@evil.test/']

const credentialsOf = (s: string) => {
  const url = new URL(s)
  return url.username + url.password
}

describe('URLs with credentials: no spelling gets through the options', () => {
  it.each(withCredentials)('%s is read as carrying credentials (the test input is what it claims)', (url) => {
    expect(credentialsOf(url)).not.toBe('')
  })
  it.each(['apiBase', 'partnerBase', 'identityUrl', 'returnUrl'])('%s: every spelling refused', (key) => {
    for (const url of withCredentials) {
      const result = parseOptions({ apiBase: 'https://api.payments.test', [key]: url })
      expect(result.ok, `${key}=${url}`).toBe(false)
    }
  })
  it('a chain rpcUrl / explorerUrl with credentials is refused too', () => {
    for (const url of withCredentials) {
      expect(parseOptions({ apiBase: 'https://api.payments.test', chains: [{ id: 8453, name: 'Base', rpcUrl: url }] }).ok).toBe(false)
      expect(parseOptions({ apiBase: 'https://api.payments.test', chains: [{ id: 8453, name: 'Base', explorerUrl: url }] }).ok).toBe(false)
    }
  })
  it('what is accepted never carries credentials once a browser parses it', () => {
    for (const url of harmless) {
      const result = parseOptions({ apiBase: 'https://api.payments.test', returnUrl: url })
      if (result.ok && result.config.returnUrl) expect(credentialsOf(result.config.returnUrl)).toBe('')
    }
  })
})

describe('an unsigned link: a returnUrl with credentials never counts as inside the registered return origins', () => {
  it.each(withCredentials)('%s', async (url) => {
    const link = await resolveLink(`?partner=acme-shop&flow=deposit&returnUrl=${encodeURIComponent(url)}`, registry, NOW)
    expect(link.ok).toBe(false)
  })
  it('raw (unencoded) in the query, as a hand-made link has it', async () => {
    for (const url of withCredentials.filter((u) => !u.includes('%') && !u.includes('#') && !u.includes('&'))) {
      const link = await resolveLink(`?partner=acme-shop&flow=deposit&returnUrl=${url}`, registry, NOW)
      if (link.ok) {
        const returnUrl = link.options.returnUrl as string
        expect(credentialsOf(returnUrl), returnUrl).toBe('')
      }
    }
  })
  it('a harmless spelling that is accepted lands on the registered origin without credentials', async () => {
    for (const url of harmless) {
      const link = await resolveLink(`?partner=acme-shop&flow=deposit&returnUrl=${encodeURIComponent(url)}`, registry, NOW)
      if (!link.ok) continue
      const parsed = new URL(link.options.returnUrl as string)
      expect(parsed.origin).toBe('https://shop.acme.test')
      expect(parsed.username + parsed.password).toBe('')
      // …and the full options then pass parseOptions without credentials either.
      const options = parseOptions(link.options)
      if (options.ok && options.config.returnUrl) expect(credentialsOf(options.config.returnUrl)).toBe('')
    }
  })
  it('look-alike origins still need a signature (IDN, trailing dot, fullwidth dot)', async () => {
    for (const url of [
      'https://shöp.acme.test/',
      'https://xn--shp-qla.acme.test/',
      'https://shop.acme.test./',
      'https://shop.acme.test\u3002/',
      'https://evil.test#@shop.acme.test',
      'https://evil.test?@shop.acme.test',
    ]) {
      const link = await resolveLink(`?partner=acme-shop&flow=deposit&returnUrl=${encodeURIComponent(url)}`, registry, NOW)
      expect(link.ok, url).toBe(false)
    }
  })
})

describe('URLs with credentials are refused', () => {
  it.each(['apiBase', 'partnerBase', 'identityUrl', 'returnUrl'])('%s, also with an empty user part (https://@host: one rule with validateRedirect)', (key) => {
    expect(parseOptions({ apiBase: 'https://api.payments.test', [key]: 'https://@api.payments.test/' }).ok).toBe(false)
  })
  it.each(['apiBase', 'partnerBase', 'identityUrl', 'returnUrl'])('%s', (key) => {
    const result = parseOptions({ apiBase: 'https://api.payments.test', [key]: 'https://attacker:secret@api.payments.test/' })
    expect(result.ok).toBe(false)
  })
  it('an unsigned link with a returnUrl carrying credentials on a registered origin', async () => {
    const link = await resolveLink(`?partner=acme-shop&flow=deposit&returnUrl=${encodeURIComponent('https://attacker:x@shop.acme.test/done')}`, registry, NOW)
    expect(link.ok).toBe(false)
  })
})
