// WalletConnect's settings come from the operator's registry only: the build checks them and writes
// the hosted pages' policy for them, and a link carrying them does not start.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: plain ESM build script
import { parseRegistry, policyFor } from '../../../scripts/registry.mjs'
import { type RegistryEntry, resolveLink } from '../../../src/config/link'

const registry: RegistryEntry[] = JSON.parse(readFileSync('test/fixtures/partners.json', 'utf8'))
const entry = registry[0]
const withWc = (walletConnect: unknown, more: Record<string, unknown> = {}) => ({ ...entry, walletConnect, ...more })
const NOW = Date.UTC(2026, 10, 27, 12)

describe('the registry (scripts/registry.mjs)', () => {
  it('takes a project id, and a wss: relay of the partner’s own', () => {
    expect(parseRegistry([withWc({ projectId: '0123456789abcdef0123456789abcdef' })])[0].walletConnect).toEqual({
      projectId: '0123456789abcdef0123456789abcdef',
    })
    expect(parseRegistry([withWc({ projectId: 'p', relayUrl: 'wss://relay.acme.test/v1' })])[0].walletConnect.relayUrl).toBe('wss://relay.acme.test/v1')
  })

  it.each([
    [{ relayUrl: 'wss://relay.acme.test' }, 'walletConnect.projectId:'],
    [{ projectId: 'a b' }, 'walletConnect.projectId: must be 1 to 64'],
    [{ projectId: 'p', relayUrl: 'https://relay.acme.test' }, 'walletConnect.relayUrl: must be a wss:// address'],
    [{ projectId: 'p', relayUrl: 'wss://relay.acme.test/?projectId=q' }, 'walletConnect.relayUrl: must be a wss:// address'],
    [{ projectId: 'p', relayUrl: 'ws://relay.acme.test' }, 'walletConnect.relayUrl: must be a wss:// address'],
    [{ projectId: 'p', relayUrl: 'ws://127.0.0.1:8788' }, 'walletConnect.relayUrl: must be wss: outside sandbox entries'],
    [{ projectId: 'p', verify: false }, 'Unrecognized key'],
  ])('refuses %j', (walletConnect, problem) => {
    expect(() => parseRegistry([withWc(walletConnect)])).toThrow(problem)
  })

  it('takes the local relay in a sandbox entry', () => {
    const sandbox = withWc({ projectId: 'sandbox', relayUrl: 'ws://127.0.0.1:8788' }, { id: 'sandbox', environment: 'sandbox' })
    expect(parseRegistry([sandbox])[0].walletConnect.relayUrl).toBe('ws://127.0.0.1:8788')
  })

  it("opens the hosted pages' policy to the relay, and to Verify's frame with WalletConnect's relay only", () => {
    const directive = (policy: string, name: string) => policy.split('; ').find((d) => d.startsWith(`${name} `))
    expect(directive(policyFor([entry], []), 'connect-src')).not.toContain('walletconnect')
    expect(directive(policyFor([entry], []), 'frame-src')).toBeUndefined()
    const hosted = policyFor([withWc({ projectId: 'p' })], [])
    expect(directive(hosted, 'connect-src')).toContain(' wss://relay.walletconnect.org')
    expect(directive(hosted, 'frame-src')).toBe('frame-src https://verify.walletconnect.org')
    const own = policyFor([withWc({ projectId: 'p', relayUrl: 'wss://relay.acme.test/v1' })], [])
    expect(directive(own, 'connect-src')).toContain(' wss://relay.acme.test')
    expect(own).not.toContain('walletconnect.org')
  })
})

describe('a link never carries it', () => {
  it.each(['walletConnect=1', 'walletConnect=%7B%22projectId%22%3A%22x%22%7D'])('a link with %s does not start', async (pair) => {
    const result = await resolveLink(`?partner=acme-shop&flow=deposit&${pair}`, [withWc({ projectId: 'p' }) as RegistryEntry], NOW)
    expect(result).toMatchObject({ ok: false, code: 'forbidden_option', detail: 'walletConnect: comes from the partner registry, never from a link' })
  })
})
