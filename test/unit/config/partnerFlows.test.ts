// Issue 28, item 8: each registry entry names the flows its partner offers (`flows`); a production
// entry offers the virtual account (onboarding) only when it names it, since no production account
// stands behind it yet (partner-api.md). A link to any other flow does not start.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { type RegistryEntry, resolveLink } from '../../../src/config/link'
import { flows, parseOptions } from '../../../src/config/config'
// @ts-expect-error: plain ESM build script
import { FLOW_NAMES, parseRegistry } from '../../../scripts/registry.mjs'

const fixture = JSON.parse(readFileSync('test/fixtures/partners.json', 'utf8'))[0]
const production: RegistryEntry = fixture
const sandbox: RegistryEntry = { ...fixture, environment: 'sandbox' }
const NOW = Date.UTC(2026, 10, 23, 12)
const everyFlow = ['deposit', 'card', 'onboarding', 'bankDeposit', 'payout', 'cardPayout']

describe('the registry names the flows a partner offers', () => {
  it('the build knows the same flow names as the widget', () => {
    expect(FLOW_NAMES).toEqual([...flows])
  })

  it.each([
    ['an unknown flow', { flows: ['deposit', 'crypto'] }, 'entry 0 ("acme-shop"): flows.1:'],
    ['no flow at all', { flows: [] }, 'flows:'],
    ['a flow named twice', { flows: ['card', 'card'] }, 'flows: "card" appears twice'],
    ['a list that is no list', { flows: 'deposit' }, 'flows:'],
  ])('%s stops the build, naming the entry and the field', (_name, change, message) => {
    expect(() => parseRegistry([{ ...fixture, ...change }], 'partners.json')).toThrow(message)
  })

  it('an entry may name its flows, the virtual account among them', () => {
    expect(parseRegistry([{ ...fixture, flows: ['deposit', 'onboarding'] }])[0].flows).toEqual(['deposit', 'onboarding'])
  })
})

describe('a link to a flow the partner does not offer does not start', () => {
  it('a production entry without `flows` offers every flow but the virtual account', async () => {
    expect(await resolveLink('?partner=acme-shop&flow=onboarding', [production], NOW)).toMatchObject({
      ok: false,
      code: 'invalid_link',
      detail: expect.stringContaining('flow: onboarding is not offered by partner "acme-shop"'),
    })
    for (const flow of ['deposit', 'card', 'bankDeposit', 'payout', 'cardPayout']) {
      expect((await resolveLink(`?partner=acme-shop&flow=${flow}`, [production], NOW)).ok).toBe(true)
    }
  })

  it('a sandbox entry without `flows` offers all of them', async () => {
    const link = await resolveLink('?partner=acme-shop&flow=onboarding', [sandbox], NOW)
    expect(link.ok && link.options.flows).toEqual(everyFlow)
  })

  it('a production entry that names the virtual account offers it', async () => {
    const link = await resolveLink('?partner=acme-shop&flow=onboarding', [{ ...production, flows: ['onboarding'] }], NOW)
    expect(link.ok && link.options.flows).toEqual(['onboarding'])
  })

  it('an entry that names its flows refuses the others, and an unknown one', async () => {
    const entry = { ...sandbox, flows: ['card' as const] }
    expect(await resolveLink('?partner=acme-shop&flow=deposit', [entry], NOW)).toMatchObject({ ok: false, code: 'invalid_link' })
    expect(await resolveLink('?partner=acme-shop&flow=toString', [entry], NOW)).toMatchObject({ ok: false, code: 'invalid_link' })
    expect((await resolveLink('?partner=acme-shop&flow=card', [entry], NOW)).ok).toBe(true)
  })

  it('a link cannot widen the list', async () => {
    expect(await resolveLink('?partner=acme-shop&flows=onboarding', [production], NOW)).toMatchObject({
      ok: false,
      code: 'forbidden_option',
      detail: expect.stringMatching(/^flows:/),
    })
  })

  it('the options carry the list (the start screen offers only these)', async () => {
    const link = await resolveLink('?partner=acme-shop', [production], NOW)
    if (!link.ok) throw new Error(link.detail)
    const parsed = parseOptions(link.options)
    expect(parsed.ok && parsed.config.flows).toEqual(['deposit', 'card', 'bankDeposit', 'payout', 'cardPayout'])
  })
})

describe('script mode: the page chooses its flows', () => {
  const base = { apiBase: 'https://api.example.com', identityUrl: 'https://id.example.com', partnerBase: 'https://shop.example/api' }
  it('a flow outside `flows` is refused', () => {
    expect(parseOptions({ ...base, flows: ['deposit'], flow: 'onboarding' })).toMatchObject({ ok: false, problem: expect.stringMatching(/^flow:/) })
    expect(parseOptions({ ...base, flows: ['deposit', 'nope'] })).toMatchObject({ ok: false, problem: expect.stringMatching(/^flows\.1:/) })
    expect(parseOptions({ ...base, flows: [] })).toMatchObject({ ok: false, problem: expect.stringMatching(/^flows:/) })
  })
  it('without `flows`, this (sandbox) build offers every flow', () => {
    const parsed = parseOptions(base)
    expect(parsed.ok && parsed.config.flows).toEqual(everyFlow)
  })
})
