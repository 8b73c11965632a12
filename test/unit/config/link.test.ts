import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type RegistryEntry, resolveLink } from '../../../src/config/link'
import { parseOptions } from '../../../src/config/config'
import { registry, signed } from '../helpers/links'

const entry = registry[0]
const NOW = Date.UTC(2026, 10, 23, 12)

const WALLET = '0x1111111111111111111111111111111111111111'

afterEach(() => vi.restoreAllMocks())

describe('hosted and iframe links: trust from the registry and the signature only', () => {
  it('a plain link takes everything that routes money from the registry', async () => {
    const link = await resolveLink('?partner=acme-shop&flow=deposit&amount=25.5&locale=de&theme=dark', registry, NOW)
    if (!link.ok) throw new Error(link.detail)
    expect(link.options).toMatchObject({
      flow: 'deposit',
      amount: '25.5',
      locale: 'de',
      theme: 'dark',
      apiBase: entry.apiBase,
      chains: entry.chains,
      sandbox: false,
    })
    const parsed = parseOptions(link.options)
    expect(parsed.ok && parsed.config.chains.find((c) => c.id === 8453)?.routers).toEqual(entry.chains[0].routers)
  })

  it("whose stored records a page keeps is the registry entry's id, and a link's options never name another", async () => {
    const two = [entry, { ...entry, id: 'other-shop' }]
    const link = await resolveLink('?partner=other-shop&flow=card', two, NOW)
    expect(link.ok && link.options.partner).toBe('other-shop')
    const first = await resolveLink('?partner=acme-shop&flow=card', two, NOW)
    expect(first.ok && first.options.partner).toBe('acme-shop')
  })

  it('timings come from a sandbox entry only, never from a link', async () => {
    const sandbox = { ...entry, environment: 'sandbox' as const, timings: { pollMs: 500 } }
    const link = await resolveLink('?partner=acme-shop&flow=deposit', [sandbox], NOW)
    expect(link.ok && parseOptions(link.options)).toMatchObject({ ok: true, config: { timings: { pollMs: 500 } } })
    const production = await resolveLink('?partner=acme-shop&flow=deposit', [{ ...entry, timings: { pollMs: 500 } }], NOW)
    expect(production.ok && production.options.timings).toBeUndefined()
    expect(await resolveLink('?partner=acme-shop&timings=%7B%22pollMs%22%3A50%7D', [sandbox], NOW)).toMatchObject({ ok: false, code: 'forbidden_option' })
  })

  it.each(['', '?flow=deposit', '?partner=nobody', '?partner=ACME-SHOP'])('%s is not a valid link', async (search) => {
    expect(await resolveLink(search, registry, NOW)).toMatchObject({ ok: false, code: 'invalid_link' })
  })

  it.each([
    ['apiBase', 'https://api.evil.example'],
    ['partnerBase', 'https://evil.example/partner'],
    ['cardHosts', 'card.evil.example'],
    ['identityUrl', 'https://evil.example/id'],
    ['chains', '[{"id":8453,"name":"Base","rpcUrl":"https://rpc.evil.example"}]'],
    ['sources', '[]'],
    ['sandbox', '1'],
    ['destination', '{"chainId":8453,"token":"0x0000000000000000000000000000000000000001","symbol":"USDC","decimals":6}'],
    ['routers', '0x0000000000000000000000000000000000000001'],
  ])('a link carrying %s does not start, and says which', async (name, value) => {
    const link = await resolveLink(`?partner=acme-shop&flow=deposit&${name}=${encodeURIComponent(value)}`, registry, NOW)
    expect(link).toMatchObject({ ok: false, code: 'forbidden_option' })
    expect(!link.ok && link.detail.startsWith(`${name}:`)).toBe(true)
  })

  it.each([
    ['walletAddress', `walletAddress=${WALLET}`],
    ['destinationAddress', `destinationAddress=${WALLET}`],
    ['reference', 'reference=order-1'],
    ['partnerToken', 'partnerToken=tok'],
    ['a locked amount', 'amount=25&lockAmount=1'],
    ['a returnUrl outside returnOrigins', 'returnUrl=https%3A%2F%2Fevil.example%2F'],
  ])('%s without a signature does not start', async (_name, pair) => {
    expect(await resolveLink(`?partner=acme-shop&flow=card&${pair}`, registry, NOW)).toMatchObject({ ok: false, code: 'bad_signature' })
  })

  it('under a valid signature the signed options are honoured; the destination chain and token stay the registry’s', async () => {
    const search = await signed(
      `partner=acme-shop&flow=deposit&walletAddress=${WALLET}&destinationAddress=${WALLET}&reference=order-1&amount=25&lockAmount=1&returnUrl=https%3A%2F%2Felsewhere.example%2Fdone&expires=${NOW / 1000 + 600}`,
    )
    const link = await resolveLink(search, registry, NOW)
    if (!link.ok) throw new Error(link.detail)
    expect(link.options).toMatchObject({
      walletAddress: WALLET,
      reference: 'order-1',
      amount: '25',
      lockAmount: true,
      returnUrl: 'https://elsewhere.example/done',
    })
    expect(link.options.destination).toEqual({ ...entry.destination, address: WALLET })
  })

  it.each([
    ['partnerToken', 'partnerToken=user-1'],
    ['reference', 'reference=order-1'],
  ])('a signed link with a %s but no expires does not start: the buyer reads the link-problem words, the console names expires', async (name, pair) => {
    const link = await resolveLink(await signed(`partner=acme-shop&flow=card&${pair}`), registry, NOW)
    expect(link).toMatchObject({ ok: false, code: 'bad_signature' })
    expect(!link.ok && link.detail).toBe(`signature: no expires (the link sets ${name})`)
    // The same link with an expires starts.
    expect(await resolveLink(await signed(`partner=acme-shop&flow=card&${pair}&expires=${NOW / 1000 + 600}`), registry, NOW)).toMatchObject({ ok: true })
  })

  it('a signed link with neither needs no expires', async () => {
    expect(await resolveLink(await signed(`partner=acme-shop&flow=card&walletAddress=${WALLET}`), registry, NOW)).toMatchObject({ ok: true })
  })

  it('a tampered signed link does not start', async () => {
    const search = (await signed(`partner=acme-shop&flow=card&walletAddress=${WALLET}`)).replace(WALLET, '0x000000000000000000000000000000000000dEaD')
    expect(await resolveLink(search, registry, NOW)).toMatchObject({ ok: false, code: 'bad_signature', detail: expect.stringContaining('mismatch') })
  })

  it('an expired signed link does not start', async () => {
    const search = await signed(`partner=acme-shop&flow=card&walletAddress=${WALLET}&expires=${NOW / 1000 - 60}`)
    expect(await resolveLink(search, registry, NOW)).toMatchObject({ ok: false, code: 'bad_signature', detail: expect.stringContaining('expired') })
  })

  it('a returnUrl inside returnOrigins needs no signature', async () => {
    const link = await resolveLink('?partner=acme-shop&returnUrl=https%3A%2F%2Fshop.acme.test%2Fthanks', registry, NOW)
    expect(link.ok && link.options.returnUrl).toBe('https://shop.acme.test/thanks')
  })

  it('a parentOrigin may only choose among the registered ones', async () => {
    expect((await resolveLink('?partner=acme-shop&parentOrigin=https%3A%2F%2Fblog.acme.test', registry, NOW)).ok).toBe(true)
    expect(await resolveLink('?partner=acme-shop&parentOrigin=https%3A%2F%2Fattacker.example', registry, NOW)).toMatchObject({
      ok: false,
      code: 'forbidden_option',
    })
  })

  it('a parameter given twice does not start (one signed, one smuggled)', async () => {
    expect(await resolveLink('?partner=acme-shop&flow=card&flow=deposit', registry, NOW)).toMatchObject({ ok: false })
  })

  it('a partner without a public key cannot honour signed options', async () => {
    const keyless = [{ ...entry, publicKey: undefined }]
    expect(await resolveLink(`?partner=acme-shop&walletAddress=${WALLET}`, keyless, NOW)).toMatchObject({
      ok: false,
      code: 'bad_signature',
      detail: expect.stringContaining('no public key'),
    })
  })
})
