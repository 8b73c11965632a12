// Whether the partner's backend links wallets (POST {partnerBase}/deposit/wallet before the first
// send) is a trust option: the operator's registry entry says it, never a link, a frame's parent
// or a declared widget's markup. In script mode the partner's page owns its options, as it does
// partnerBase.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: plain ESM build script
import { parseRegistry, registryWarnings } from '../../../scripts/registry.mjs'
import { parseOptions } from '../../../src/config/config'
import { parseLiveOptions } from '../../../src/config/live'
import { REGISTRY_ONLY, type RegistryEntry, resolveLink } from '../../../src/config/link'
import { configFrom, registry, signed } from '../helpers/links'

const entry = registry[0]
const NOW = Date.UTC(2026, 10, 23, 12)

/** The config a hosted page or frame would run with, for this link and registry. */
async function configOf(search: string, entries: RegistryEntry[]) {
  const link = await resolveLink(search, entries, NOW)
  if (!link.ok) throw new Error(link.detail)
  return configFrom(link.options)
}

describe('walletLink: from the registry entry only', () => {
  it("is the entry's word: on where the entry says so, off where it says nothing", async () => {
    expect(REGISTRY_ONLY).toContain('walletLink')
    expect((await configOf('?partner=acme-shop&flow=deposit', [{ ...entry, walletLink: true }])).walletLink).toBe(true)
    expect((await configOf('?partner=acme-shop&flow=deposit', registry)).walletLink).toBe(false)
    expect((await configOf('?partner=acme-shop&flow=deposit', [{ ...entry, walletLink: false }])).walletLink).toBe(false)
  })

  it.each(['walletLink=1', 'walletLink=true', 'walletLink', 'walletLink=0'])('a link carrying %s does not start, and says which', async (pair) => {
    for (const entries of [registry, [{ ...entry, walletLink: true }]]) {
      const link = await resolveLink(`?partner=acme-shop&flow=deposit&${pair}`, entries, NOW)
      expect(link).toMatchObject({ ok: false, code: 'forbidden_option', detail: expect.stringMatching(/^walletLink: comes from the partner registry/) })
    }
  })

  it("a link the partner signed may not set it either: the registry's word is not the partner's to change", async () => {
    const search = await signed(`partner=acme-shop&flow=deposit&walletLink=1&expires=${NOW / 1000 + 600}`)
    expect(await resolveLink(search, registry, NOW)).toMatchObject({ ok: false, code: 'forbidden_option', detail: expect.stringMatching(/^walletLink:/) })
    // The same link without it starts: the refusal is the option's, not the signature's.
    expect((await resolveLink(await signed(`partner=acme-shop&flow=deposit&expires=${NOW / 1000 + 600}`), registry, NOW)).ok).toBe(true)
  })

  it("a frame's parent cannot turn it on or off after mounting", () => {
    expect(parseLiveOptions({ walletLink: true })).toMatchObject({ ok: false, problem: expect.stringMatching(/^walletLink: cannot change after mounting/) })
    expect(parseLiveOptions({ walletLink: false })).toMatchObject({ ok: false })
  })
})

describe('walletLink in script mode: the page owns it, as it owns partnerBase', () => {
  it("is the page's option, off unless the page says true", () => {
    const base = { apiBase: 'https://api.payments.test', partnerBase: 'https://shop.example/api' }
    expect(parseOptions({ ...base, walletLink: true })).toMatchObject({ ok: true, config: { walletLink: true } })
    expect(parseOptions(base)).toMatchObject({ ok: true, config: { walletLink: false } })
    // Only true turns it on, as partnerCookies (the loader tag's data-wallet-link="1" is read as true: params.ts).
    for (const walletLink of ['true', '1', 1, {}]) expect(parseOptions({ ...base, walletLink })).toMatchObject({ ok: true, config: { walletLink: false } })
  })
})

describe('walletLink in the registry file', () => {
  const parse = (change: object) => () => parseRegistry([{ ...entry, ...change }], 'partners.json')

  it('is a boolean, kept as written', () => {
    expect(parse({ walletLink: true })()[0].walletLink).toBe(true)
    expect(parse({ walletLink: false })()[0].walletLink).toBe(false)
    expect(parse({})()[0].walletLink).toBeUndefined()
    expect(parse({ walletLink: 'yes' })).toThrow('entry 0 ("acme-shop"): walletLink:')
  })

  it('not said, for an entry with a backend that offers the deposit: the build warns, and goes on', () => {
    const warnings = (change: object) => registryWarnings(parse(change)(), 'partners.json')
    // The fixture's entry: a backend, every default flow, no walletLink.
    expect(warnings({})).toEqual([
      'partners.json: entry 0 ("acme-shop"): walletLink: not said. Its crypto deposits are sent without asking https://shop.acme.test/api to link the wallet, ' +
        'and a partner kit that runs with chains refuses to record them (403 wallet_not_linked). Say walletLink: true if it does, walletLink: false if not',
    ])
    expect(warnings({ flows: ['card', 'deposit'] })).toHaveLength(1)
    // Said either way, no backend, or no deposit offered: nothing to say.
    for (const change of [{ walletLink: true }, { walletLink: false }, { partnerBase: undefined, flows: ['deposit'] }, { flows: ['card', 'payout'] }]) {
      expect(warnings(change), JSON.stringify(change)).toEqual([])
    }
  })

  it('needs the partner backend it speaks of', () => {
    expect(parse({ walletLink: true, partnerBase: undefined })).toThrow('entry 0 ("acme-shop"): walletLink: needs partnerBase (the backend that links wallets)')
    expect(parse({ walletLink: false, partnerBase: undefined })()[0].walletLink).toBe(false)
  })
})
