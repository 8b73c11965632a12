// connect, restore and disconnect over a fake sign-client: what the client is started with (storage,
// telemetry, logger, Verify), what the phone is asked, and the note that lets a later page resume.
import { describe, expect, it } from 'vitest'
import { createWalletConnect, type WalletConnectOptions } from '../../../src/wallet/walletConnect/client'
import { WalletConnectError, WalletConnectRejected, WalletConnectSessionEnded, WalletConnectTimeout } from '../../../src/wallet/walletConnect/errors'
import { SESSION_MARK } from '../../../src/wallet/walletConnect/settings'
import { createFakeClock, settle } from '../helpers/fakeClock'
import { memoryStorage } from '../helpers/memoryStorage'
import { PHONE, TOPIC, fakeSignClient, session } from './fakeSignClient'

let scopes = 0
function setup(options: Partial<WalletConnectOptions> = {}, sessions = [] as ReturnType<typeof session>[]) {
  const fake = fakeSignClient(sessions)
  const inits: Array<Record<string, unknown>> = []
  const marks = memoryStorage()
  const clock = createFakeClock(1_700_000_000_000)
  // A scope of its own per test: the module keeps one client per partner and service.
  const scope = { partner: `p${++scopes}`, apiBase: 'https://api.payments.test' }
  const wc = createWalletConnect({
    config: { projectId: 'abc123' },
    scope,
    marks,
    clock,
    origin: 'https://widget.test',
    init: async (o) => {
      inits.push(o)
      return fake.client
    },
    ...options,
  })
  return { fake, inits, marks, clock, wc }
}

const URI = /^wc:b{64}@2\?/

describe('connect', () => {
  it('starts the client offline-safe and scoped, proposes the chains and methods, hands over the URI, resolves on approval', async () => {
    const { fake, inits, marks, wc } = setup()
    const uris: string[] = []
    const connecting = wc.connect({ chains: [42161, 8453], onUri: (uri) => uris.push(uri) })
    await settle()
    expect(inits).toHaveLength(1)
    expect(inits[0]).toMatchObject({ projectId: 'abc123', telemetryEnabled: false, metadata: { url: 'https://widget.test' } })
    expect(inits[0]).not.toHaveProperty('relayUrl')
    expect(String(inits[0].customStoragePrefix)).toMatch(/^stablecoin-widget-[0-9a-z]+$/)
    // A logger object: sign-client's default browser logger keeps every line for any script to download.
    expect(inits[0].logger).toMatchObject({ level: 'silent' })
    expect(typeof (inits[0].logger as { child: () => unknown }).child()).toBe('object')
    expect(fake.proposals[0].params).toEqual({
      optionalNamespaces: {
        eip155: {
          chains: ['eip155:42161', 'eip155:8453'],
          methods: [
            'eth_sendTransaction',
            'personal_sign',
            'eth_signTypedData_v4',
            'wallet_sendCalls',
            'wallet_switchEthereumChain',
            'wallet_addEthereumChain',
            'wallet_getCapabilities',
            'wallet_getCallsStatus',
          ],
          events: ['chainChanged', 'accountsChanged'],
        },
      },
    })
    expect(uris).toHaveLength(1)
    expect(uris[0]).toMatch(URI)
    fake.proposals[0].approve(session())
    const { provider, address, chainId } = await connecting
    expect({ address, chainId }).toEqual({ address: PHONE, chainId: 42161 })
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0xa4b1')
    expect(JSON.parse(marks.getItem(SESSION_MARK)!)).toEqual({ expiry: 2_000_000_000 })
    // The URI and the session's keys are nowhere in what the widget notes.
    expect([...marks.data.values()].join()).not.toContain('c'.repeat(64))
  })

  it("keeps Verify with WalletConnect's relay; replaces it with a relay of the partner's own", async () => {
    const hosted = setup()
    hosted.wc.connect({ chains: [8453], onUri: () => {} })
    await settle()
    expect(hosted.fake.client.core.verify.register).toBe(hosted.fake.original.register)
    const own = setup({ config: { projectId: 'abc123', relayUrl: 'wss://relay.partner.test' } })
    own.wc.connect({ chains: [8453], onUri: () => {} })
    await settle()
    expect(own.inits[0]).toMatchObject({ relayUrl: 'wss://relay.partner.test' })
    expect(own.fake.client.core.verify.register).not.toBe(own.fake.original.register)
    expect(await own.fake.client.core.verify.register({ id: '1', decryptedId: '2' })).toBe('')
  })

  it('one client per partner and service on a page', async () => {
    const { fake, inits, wc } = setup()
    const first = wc.connect({ chains: [8453], onUri: () => {} })
    await settle()
    fake.proposals[0].reject({ code: 5000, message: 'User rejected.' })
    await first.catch(() => {})
    wc.connect({ chains: [8453], onUri: () => {} })
    await settle()
    expect(inits).toHaveLength(1)
  })

  it('the phone rejects: WalletConnectRejected; the proposal expires: WalletConnectTimeout; nothing is noted', async () => {
    const { fake, marks, wc } = setup()
    const rejected = wc.connect({ chains: [8453], onUri: () => {} }).catch((e: unknown) => e)
    await settle()
    fake.proposals[0].reject({ code: 5000, message: 'User rejected.' })
    expect(await rejected).toBeInstanceOf(WalletConnectRejected)
    const expired = wc.connect({ chains: [8453], onUri: () => {} }).catch((e: unknown) => e)
    await settle()
    fake.proposals[1].reject({ message: 'Proposal expired', code: 0 })
    expect(await expired).toBeInstanceOf(WalletConnectTimeout)
    expect(marks.getItem(SESSION_MARK)).toBeNull()
  })

  it('a session on none of the chains asked for is ended and refused (5100)', async () => {
    const { fake, wc } = setup()
    const connecting = wc.connect({ chains: [8453], onUri: () => {} }).catch((e: unknown) => e)
    await settle()
    fake.proposals[0].approve(session({ chains: [1] }))
    const error = await connecting
    expect(error).toBeInstanceOf(WalletConnectError)
    expect(error).toMatchObject({ code: 5100 })
    expect(fake.disconnects.map((d) => d.topic)).toEqual([TOPIC])
  })

  it('aborted (the buyer left): rejects with the AbortError; a session approved later is ended at once', async () => {
    const { fake, marks, wc } = setup()
    const controller = new AbortController()
    const connecting = wc.connect({ chains: [8453], onUri: () => {}, signal: controller.signal }).catch((e: unknown) => e)
    await settle()
    controller.abort()
    expect(await connecting).toMatchObject({ name: 'AbortError' })
    fake.proposals[0].approve(session())
    await settle()
    expect(fake.disconnects).toEqual([{ topic: TOPIC, reason: { code: 6000, message: 'User disconnected.' } }])
    expect(marks.getItem(SESSION_MARK)).toBeNull()
  })

  it('refuses settings the registry would have refused (ws: anywhere but 127.0.0.1, a query, no project)', () => {
    for (const config of [
      { projectId: '' },
      { projectId: 'a b' },
      { projectId: 'x', relayUrl: 'ws://relay.test' },
      { projectId: 'x', relayUrl: 'https://relay.test' },
      { projectId: 'x', relayUrl: 'wss://relay.test/?projectId=y' },
    ]) {
      expect(() => setup({ config })).toThrow(WalletConnectError)
    }
    // Unit tests run the sandbox build: the local relay is allowed there.
    expect(() => setup({ config: { projectId: 'sandbox', relayUrl: 'ws://127.0.0.1:8788' } })).not.toThrow()
  })
})

describe('restore', () => {
  it('without a note of a live session, starts nothing (no client, no relay)', async () => {
    const { inits, marks, wc } = setup({}, [session()])
    expect(await wc.restore()).toBeUndefined()
    marks.setItem(SESSION_MARK, JSON.stringify({ expiry: 1_600_000_000 }))
    expect(await wc.restore()).toBeUndefined()
    expect(inits).toEqual([])
  })

  it('with one, resumes the live session on the chain asked for', async () => {
    const { marks, wc, fake } = setup({}, [session({ expiry: 1_700_000_100 }), session({ topic: 'd'.repeat(64), expiry: 1_800_000_000 })])
    marks.setItem(SESSION_MARK, JSON.stringify({ expiry: 1_800_000_000 }))
    const restored = await wc.restore({ chains: [42161] })
    expect(restored).toMatchObject({ address: PHONE, chainId: 42161 })
    fake.emit('session_delete', { topic: TOPIC })
    const asked = restored!.provider.request({ method: 'personal_sign', params: ['0x00', PHONE] })
    await settle()
    expect(fake.requests[0].params.topic).toBe('d'.repeat(64))
    fake.answer('0xsig')
    expect(await asked).toBe('0xsig')
    expect(await wc.restore()).toBe(restored)
  })

  it('a note whose session is gone is forgotten', async () => {
    const { marks, wc } = setup({}, [session({ acknowledged: false })])
    marks.setItem(SESSION_MARK, JSON.stringify({ expiry: 1_800_000_000 }))
    expect(await wc.restore()).toBeUndefined()
    expect(marks.getItem(SESSION_MARK)).toBeNull()
  })
})

describe('disconnect and close', () => {
  it('disconnect ends the session on the phone and here: disconnect heard (by the widget), the note gone', async () => {
    const { fake, marks, wc } = setup()
    const connecting = wc.connect({ chains: [8453], onUri: () => {} })
    await settle()
    fake.proposals[0].approve(session())
    const { provider } = await connecting
    const heard: unknown[] = []
    provider.on('disconnect', (e) => heard.push(e))
    await wc.disconnect()
    expect(fake.disconnects).toEqual([{ topic: TOPIC, reason: { code: 6000, message: 'User disconnected.' } }])
    expect(heard).toEqual([expect.objectContaining({ by: 'widget' })])
    expect(heard[0]).toBeInstanceOf(WalletConnectSessionEnded)
    expect(marks.getItem(SESSION_MARK)).toBeNull()
    await expect(provider.request({ method: 'eth_accounts' })).rejects.toBeInstanceOf(WalletConnectSessionEnded)
  })

  it('offline, disconnect still forgets the session here', async () => {
    const { fake, wc } = setup()
    const connecting = wc.connect({ chains: [8453], onUri: () => {} })
    await settle()
    fake.proposals[0].approve(session())
    await connecting
    fake.client.disconnect = async () => {
      throw new Error('No internet connection detected.')
    }
    await wc.disconnect()
    expect(fake.store.size).toBe(0)
  })

  it('close lets go of the relay and keeps the session and its note for a later page', async () => {
    const { fake, marks, wc } = setup()
    const connecting = wc.connect({ chains: [8453], onUri: () => {} })
    await settle()
    fake.proposals[0].approve(session())
    await connecting
    await wc.close()
    expect(fake.closed()).toBe(1)
    expect(fake.store.has(TOPIC)).toBe(true)
    expect(marks.getItem(SESSION_MARK)).not.toBeNull()
  })
})
