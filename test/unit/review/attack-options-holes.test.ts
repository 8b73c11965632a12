// Holes an attacker's review found (helper-20, 2026-11-24): each test asserts the safe behaviour;
// each failed before its fix.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseLiveOptions, parseOptions } from '../../../src/config/config'
import { type RegistryEntry, resolveLink } from '../../../src/config/link'

const registry: RegistryEntry[] = JSON.parse(readFileSync('test/fixtures/partners.json', 'utf8'))
const NOW = Date.UTC(2026, 10, 23, 12)

describe('live options: a key that is not an option is refused, even one Object.prototype has', () => {
  it.each(['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'])('%s', (key) => {
    // An own property, as JSON.parse or a structured clone (postMessage) makes it.
    const options = JSON.parse(`{${JSON.stringify(key)}:"x"}`)
    expect(parseLiveOptions(options)).toMatchObject({ ok: false })
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
