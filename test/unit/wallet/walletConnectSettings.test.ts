// The widget offers WalletConnect only where the partner's registry entry gives a project; its
// records stay in the partner's part of the storage; the deep links carry the URI encoded.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { RegistryEntry } from '../../../src/config/link'
import { scopedStorage } from '../../../src/storage/safeStorage'
import { walletLinks } from '../../../src/wallet/walletConnect/links'
import { SESSION_MARK } from '../../../src/wallet/walletConnect/settings'
import { webKeyValueStorage } from '../../../src/wallet/walletConnect/storage'
import { walletConnectOf, walletConnectOffered, walletConnectSaved } from '../../../src/wallet/walletConnectLoader'
import { memoryStorage, throwingStorage } from '../helpers/memoryStorage'

const registry: RegistryEntry[] = JSON.parse(readFileSync('test/fixtures/partners.json', 'utf8'))
const entry = registry[0]
const withWc = (walletConnect: unknown, more: Record<string, unknown> = {}) => ({ ...entry, walletConnect, ...more })
const NOW = Date.UTC(2026, 10, 27, 12)

describe('walletConnectOffered (the partner’s registry entry, checked again)', () => {
  const entries = [
    withWc({ projectId: 'p' }) as RegistryEntry,
    { ...entry, id: 'plain' },
    withWc({ projectId: 'p', relayUrl: 'http://relay.test' }, { id: 'odd' }) as RegistryEntry,
  ]
  it('is offered only to a partner whose entry gives a valid project', () => {
    expect(walletConnectOf({ partner: 'acme-shop' }, entries)).toEqual({ projectId: 'p' })
    expect(walletConnectOffered({ partner: 'acme-shop' }, entries)).toBe(true)
    expect(walletConnectOffered({ partner: 'plain' }, entries)).toBe(false)
    expect(walletConnectOffered({ partner: 'odd' }, entries)).toBe(false)
    // Script mode: no registry entry behind the page.
    expect(walletConnectOffered({}, entries)).toBe(false)
  })
})

describe('where the session is kept', () => {
  it("walletConnectSaved reads the note in the partner's part of the storage only", () => {
    const shared = memoryStorage()
    const acme = scopedStorage(shared, { partner: 'acme-shop', apiBase: 'https://api.payments.test' })
    const other = scopedStorage(shared, { partner: 'other', apiBase: 'https://api.payments.test' })
    acme!.setItem(SESSION_MARK, JSON.stringify({ expiry: NOW / 1000 + 60 }))
    expect(walletConnectSaved({ partner: 'acme-shop', apiBase: 'https://api.payments.test' }, NOW, acme)).toBe(true)
    expect(walletConnectSaved({ partner: 'other', apiBase: 'https://api.payments.test' }, NOW, other)).toBe(false)
    expect(walletConnectSaved({ partner: 'acme-shop', apiBase: 'https://api.payments.test' }, NOW + 61_000, acme)).toBe(false)
    acme!.setItem(SESSION_MARK, '{not json')
    expect(walletConnectSaved({ partner: 'acme-shop', apiBase: 'https://api.payments.test' }, NOW, acme)).toBe(false)
    expect(walletConnectSaved({ partner: 'acme-shop', apiBase: 'https://api.payments.test' }, NOW, throwingStorage())).toBe(false)
  })

  it("core's records: under the partner's keys, BigInt ids kept, another partner sees none", async () => {
    const shared = memoryStorage()
    const acme = webKeyValueStorage(scopedStorage(shared, { partner: 'acme-shop', apiBase: 'https://api.payments.test' }))
    await acme.setItem('wc@2:core:0.3//history', [{ id: 1_700_000_000_000_000n, topic: 't' }])
    expect(await acme.getItem('wc@2:core:0.3//history')).toEqual([{ id: 1_700_000_000_000_000n, topic: 't' }])
    expect([...shared.data.keys()].every((k) => k.startsWith('stablecoin-widget:v1["acme-shop","https://api.payments.test"]'))).toBe(true)
    // A later page reads them back.
    const again = webKeyValueStorage(scopedStorage(shared, { partner: 'acme-shop', apiBase: 'https://api.payments.test' }))
    expect(await again.getKeys()).toEqual(['wc@2:core:0.3//history'])
    expect(await again.getEntries()).toEqual([['wc@2:core:0.3//history', [{ id: 1_700_000_000_000_000n, topic: 't' }]]])
    const other = webKeyValueStorage(scopedStorage(shared, { partner: 'other', apiBase: 'https://api.payments.test' }))
    expect(await other.getKeys()).toEqual([])
    expect(await other.getItem('wc@2:core:0.3//history')).toBeUndefined()
    await again.removeItem('wc@2:core:0.3//history')
    expect(await acme.getKeys()).toEqual([])
    expect(shared.data.size).toBe(1)
  })

  it('a storage that refuses (private mode) keeps the page working from memory', async () => {
    const store = webKeyValueStorage(throwingStorage())
    await store.setItem('k', { a: 1 })
    expect(await store.getItem('k')).toEqual({ a: 1 })
    await store.removeItem('k')
    expect(await store.getItem('k')).toBeUndefined()
  })
})

describe('walletLinks', () => {
  const uri =
    'wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?relay-protocol=irn&symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303&expiryTimestamp=1764248400'
  it('gives each wallet its own scheme’s link with the URI encoded, then the URI itself', () => {
    const encoded = encodeURIComponent(uri)
    expect(walletLinks(uri)).toEqual([
      { name: 'MetaMask', href: `metamask://wc?uri=${encoded}` },
      { name: 'Rainbow', href: `rainbow://wc?uri=${encoded}` },
      { name: 'Trust Wallet', href: `trust://wc?uri=${encoded}` },
      { name: 'Coinbase Wallet', href: `cbwallet://wc?uri=${encoded}` },
      { name: 'Other wallet', href: uri },
    ])
    // Nothing of the URI escapes its parameter: no raw '&', '?', '@' or ':' after `uri=`.
    for (const { href } of walletLinks(uri).slice(0, -1)) expect(href.split('?uri=')[1]).toMatch(/^[\w%.-]+$/)
  })

  it('never hands the pairing URI to a web server: no link is http(s), so a phone without the app opens nothing', () => {
    // A universal link (https://metamask.app.link/wc?uri=…) falls back to the wallet maker's web
    // server when the app is missing, and that server's logs would hold the pairing's symKey
    // (SECURITY.md: the pairing URI is the buyer's alone, never in a URL).
    for (const { href } of walletLinks(uri)) expect(new URL(href).protocol).not.toMatch(/^https?:$/)
  })

  it('gives nothing for anything but a wc: URI', () => {
    expect(walletLinks('https://evil.example/wc?uri=x')).toEqual([])
    expect(walletLinks('javascript:alert(1)')).toEqual([])
    expect(walletLinks('wc:abc def')).toEqual([])
  })
})
