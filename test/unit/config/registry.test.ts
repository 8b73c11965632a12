import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: plain ESM build script
import { headersFile, parseRegistry } from '../../../scripts/registry.mjs'

const good = JSON.parse(readFileSync('test/fixtures/partners.json', 'utf8'))[0]
const parse = (entry: object) => () => parseRegistry([entry], 'partners.json')

describe('partner registry', () => {
  it('the test registry is good', () => {
    expect(parseRegistry([good])[0].id).toBe('acme-shop')
  })

  it.each([
    ['id', { id: 'Acme Shop' }, 'entry 0 ("Acme Shop"): id: must be 3 to 40 of a-z, 0-9 and -'],
    ['id too short', { id: 'ab' }, 'id: must be 3 to 40'],
    ['environment', { environment: 'staging' }, 'environment:'],
    ['apiBase', { apiBase: 'ftp://x' }, 'apiBase: must be an http(s) address'],
    ['apiBase http in production', { apiBase: 'http://api.payments.test' }, 'apiBase: must be https: outside sandbox entries'],
    ['partnerBase http in production', { partnerBase: 'http://shop.acme.test/api' }, 'partnerBase: must be https:'],
    ['identityUrl http in production', { identityUrl: 'http://id.test/' }, 'identityUrl: must be https:'],
    ['a chain rpcUrl http in production', { chains: [{ id: 8453, name: 'Base', rpcUrl: 'http://rpc.test' }] }, 'chains.0.rpcUrl: must be https:'],
    ['a router that is not an address', { chains: [{ id: 8453, name: 'Base', routers: ['0x12'] }] }, 'chains.0.routers.0: must be a 0x address'],
    ['cardHosts with a path', { cardHosts: ['pay.test/x'] }, 'cardHosts.0: must be a host, or host:port'],
    ['sources empty', { sources: [] }, 'sources:'],
    ['parentOrigins with a path', { parentOrigins: ['https://shop.acme.test/pay'] }, 'parentOrigins.0: must be an origin'],
    ['parentOrigins http in production', { parentOrigins: ['http://shop.acme.test'] }, 'parentOrigins.0: must be https:'],
    ['returnOrigins http in production', { returnOrigins: ['http://shop.acme.test'] }, 'returnOrigins.0: must be https:'],
    ['publicKey of another curve', { publicKey: { ...good.publicKey, crv: 'P-384' } }, 'publicKey.crv:'],
    ['publicKey with its private part', { publicKey: { ...good.publicKey, d: 'x'.repeat(43) } }, 'publicKey: holds a private key (d)'],
    ['an unknown field', { apiKey: 'sk_live' }, 'Unrecognized key'],
    ['timings on a production entry', { timings: { pollMs: 100 } }, 'timings: only sandbox entries may shorten the timers'],
    ['a timing below 50 ms', { environment: 'sandbox', timings: { pollMs: 10 } }, 'timings.pollMs:'],
    ['an unknown timing', { environment: 'sandbox', timings: { quoteMs: 100 } }, 'Unrecognized key'],
  ])('a bad %s stops the build, naming the entry and the field', (_name, change, message) => {
    expect(parse({ ...good, ...change })).toThrow(message)
  })

  it('a sandbox entry may use http on loopback', () => {
    const sandbox = { ...good, id: 'sandbox', environment: 'sandbox', apiBase: 'http://127.0.0.1:8787', parentOrigins: ['http://127.0.0.1:8787'] }
    expect(parseRegistry([sandbox])[0].environment).toBe('sandbox')
  })

  it('a sandbox entry may shorten the timers', () => {
    const sandbox = { ...good, id: 'sandbox', environment: 'sandbox', timings: { pollMs: 500, bankPollMs: 1000 } }
    expect(parseRegistry([sandbox])[0].timings).toEqual({ pollMs: 500, bankPollMs: 1000 })
  })

  it('production and sandbox entries are never built together; ids are unique', () => {
    expect(() => parseRegistry([good, { ...good, id: 'sandbox', environment: 'sandbox' }])).toThrow('mixes production and sandbox')
    expect(() => parseRegistry([good, good])).toThrow('id: "acme-shop" appears twice')
    expect(() => parseRegistry({})).toThrow('must be a JSON array')
  })

  it('_headers frames the iframe page only from the registered parents, and the hosted page never', () => {
    const text = headersFile(parseRegistry([good]))
    const block = (path: string) => text.split('\n\n').find((b: string) => b.split('\n')[0] === path) ?? ''
    expect(block('/p/acme-shop/embed.html')).toContain('frame-ancestors https://shop.acme.test https://blog.acme.test')
    expect(block('/p/acme-shop/index.html')).toContain("frame-ancestors 'none'")
    // Pretty-URL hosts serve /embed for /embed.html: the same frame-ancestors there.
    expect(block('/p/acme-shop/embed')).toContain('frame-ancestors https://shop.acme.test https://blog.acme.test')
    expect(block('/embed')).toContain('frame-ancestors https://shop.acme.test https://blog.acme.test')
    expect(block('/embed.html')).toContain("script-src 'self'")
    expect(block('/embed.html')).not.toContain('unsafe')
    expect(block('/index.html')).toContain(
      "connect-src 'self' https://api.payments.test https://shop.acme.test https://rpc.base.test https://rpc.arbitrum.test",
    )
  })
})
