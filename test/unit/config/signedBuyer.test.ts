// @vitest-environment happy-dom
// A returning buyer on a new device (issue 31): the partner's server signs the buyer's known
// accountId and walletId into the link, with the wallet they were made for. Signed-only options:
// an unsigned link, half a buyer, a buyer without its wallet, another partner's key, an expired or
// changed link never start with them.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { type RegistryEntry, resolveLink } from '../../../src/config/link'
import { parseOptions } from '../../../src/config/config'
import { parseLiveOptions } from '../../../src/config/live'
import { markupOptions } from '../../../src/embed/api'
import { registry, signWith, signed } from '../helpers/links'

const NOW = Date.UTC(2026, 10, 23, 12)
const EXPIRES = NOW / 1000 + 600
const WALLET = '0x1111111111111111111111111111111111111111'
const BUYER = `accountId=acc_1&walletId=wal_1&walletAddress=${WALLET}`

describe('a signed buyer in a link', () => {
  it.each([
    ['accountId', 'accountId=acc_1'],
    ['walletId', 'walletId=wal_1'],
    ['the whole buyer', BUYER],
    ['the whole buyer, with an expires', `${BUYER}&expires=${EXPIRES}`],
  ])('an unsigned link carrying %s does not start, as any signed-only option', async (name, pair) => {
    const link = await resolveLink(`?partner=acme-shop&flow=payout&${pair}`, registry, NOW)
    expect(link).toMatchObject({ ok: false, code: 'bad_signature' })
    if (name !== 'the whole buyer, with an expires') expect(!link.ok && link.detail).toContain(name === 'walletId' ? 'walletId' : 'accountId')
  })

  it('under the partner’s signature, with an expires, the buyer is the link’s: the options carry all three', async () => {
    const link = await resolveLink(await signed(`partner=acme-shop&flow=payout&${BUYER}&expires=${EXPIRES}`), registry, NOW)
    if (!link.ok) throw new Error(link.detail)
    expect(link.options).toMatchObject({ accountId: 'acc_1', walletId: 'wal_1', walletAddress: WALLET })
    const parsed = parseOptions(link.options)
    if (!parsed.ok) throw new Error(parsed.problem)
    expect(parsed.config).toMatchObject({ accountId: 'acc_1', walletId: 'wal_1', walletAddress: WALLET })
  })

  it('a signed buyer without an expires does not start: whoever finds the link would act as that verified account', async () => {
    const link = await resolveLink(await signed(`partner=acme-shop&flow=payout&${BUYER}`), registry, NOW)
    expect(link).toMatchObject({ ok: false, code: 'bad_signature' })
    expect(!link.ok && link.detail).toContain('no expires')
  })

  it.each([
    ['accountId without walletId', `accountId=acc_1&walletAddress=${WALLET}`],
    ['walletId without accountId', `walletId=wal_1&walletAddress=${WALLET}`],
    ['the ids without the wallet they were made for', 'accountId=acc_1&walletId=wal_1'],
  ])('a signed link with %s is a link error (the buyer reads "not valid"; the console names it)', async (_name, pairs) => {
    const link = await resolveLink(await signed(`partner=acme-shop&flow=payout&${pairs}&expires=${EXPIRES}`), registry, NOW)
    expect(link).toMatchObject({ ok: false, code: 'invalid_link' })
    expect(!link.ok && link.detail).toMatch(/^(accountId|walletId|walletAddress): required/)
  })

  it('a signed buyer changed after signing, expired, or signed with another partner’s key does not start', async () => {
    const good = await signed(`partner=acme-shop&flow=payout&${BUYER}&expires=${EXPIRES}`)
    expect(await resolveLink(good.replace('acc_1', 'acc_2'), registry, NOW)).toMatchObject({
      ok: false,
      code: 'bad_signature',
      detail: expect.stringContaining('mismatch'),
    })
    expect(await resolveLink(good.replace('wal_1', 'wal_2'), registry, NOW)).toMatchObject({
      ok: false,
      code: 'bad_signature',
      detail: expect.stringContaining('mismatch'),
    })
    expect(await resolveLink(good, registry, (EXPIRES + 1) * 1000)).toMatchObject({
      ok: false,
      code: 'bad_signature',
      detail: expect.stringContaining('expired'),
    })
    const other = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign'])) as CryptoKeyPair
    const otherJwk = await crypto.subtle.exportKey('jwk', other.privateKey)
    const forged = await signWith(otherJwk, `partner=acme-shop&flow=payout&${BUYER}&expires=${EXPIRES}`)
    expect(await resolveLink(forged, registry, NOW)).toMatchObject({ ok: false, code: 'bad_signature', detail: expect.stringContaining('mismatch') })
  })

  it('a signed buyer with a second, unsigned accountId appended does not start', async () => {
    const good = await signed(`partner=acme-shop&flow=payout&${BUYER}&expires=${EXPIRES}`)
    expect(await resolveLink(`${good}&accountId=acc_evil`, registry, NOW)).toMatchObject({ ok: false, code: 'bad_signature' })
  })
})

describe('the signed buyer as options (script mode: the partner’s own page)', () => {
  const base = { apiBase: 'https://api.example.com', walletAddress: WALLET }
  it('takes the ids together, with the wallet', () => {
    expect(parseOptions({ ...base, accountId: 'acc_1', walletId: 'wal_1' })).toMatchObject({ ok: true, config: { accountId: 'acc_1', walletId: 'wal_1' } })
  })

  it.each([
    [{ accountId: 'acc_1' }, /^walletId: /],
    [{ walletId: 'wal_1' }, /^accountId: /],
  ])('refuses one id without the other (%o)', (ids, problem) => {
    const parsed = parseOptions({ ...base, ...ids })
    expect(parsed.ok).toBe(false)
    expect(!parsed.ok && parsed.problem).toMatch(problem)
  })

  it('refuses the ids without the wallet they were made for', () => {
    const parsed = parseOptions({ apiBase: base.apiBase, accountId: 'acc_1', walletId: 'wal_1' })
    expect(!parsed.ok && parsed.problem).toMatch(/^walletAddress: /)
  })

  it.each([
    ['empty', ''],
    ['with a space', 'acc 1'],
    ['with a line break', 'acc\n1'],
    ['with a bidi override', 'acc\u202e1'],
    ['over 128 characters', 'a'.repeat(129)],
    ['not a string', 42],
  ])('refuses an id %s', (_name, value) => {
    expect(parseOptions({ ...base, accountId: value, walletId: 'wal_1' })).toMatchObject({ ok: false, problem: expect.stringMatching(/^accountId: /) })
    expect(parseOptions({ ...base, accountId: 'acc_1', walletId: value })).toMatchObject({ ok: false, problem: expect.stringMatching(/^walletId: /) })
  })

  it('takes 128 printable characters', () => {
    const id = `${'a'.repeat(120)}-_.:/~!@`
    expect(parseOptions({ ...base, accountId: id, walletId: id })).toMatchObject({ ok: true })
  })

  it('never from markup, never from a live update (a frame’s parent, any script on the page)', () => {
    const element = document.createElement('stablecoin-widget')
    element.setAttribute('account-id', 'acc_evil')
    element.setAttribute('data-wallet-id', 'wal_evil')
    element.setAttribute('flow', 'payout')
    const options = markupOptions(element)
    expect(options).toEqual({ flow: 'payout' })
    expect(parseLiveOptions({ accountId: 'acc_evil' })).toMatchObject({ ok: false })
    expect(parseLiveOptions({ walletId: 'wal_evil' })).toMatchObject({ ok: false })
  })
})
