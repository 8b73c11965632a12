// The EIP-1193 provider over a WalletConnect session, against a fake sign-client: what is answered
// from the session, what goes to the phone (once), and how each end of a request reaches the flows.
import { createClient, custom, ResourceUnavailableRpcError, UserRejectedRequestError } from 'viem'
import { describe, expect, it } from 'vitest'
import { walletProblemOf } from '../../../src/errors/WalletError'
import { ensureChain, send } from '../../../src/wallet/chainActions'
import {
  WalletConnectRejected,
  WalletConnectSessionEnded,
  WalletConnectTimeout,
  WalletConnectUnreachable,
  WalletConnectUnsupported,
  WalletConnectWalletError,
} from '../../../src/wallet/walletConnect/errors'
import { PROMPT_MS, READ_MS, createSessionProvider } from '../../../src/wallet/walletConnect/provider'
import { createFakeClock, settle } from '../helpers/fakeClock'
import { PHONE, TOPIC, fakeSignClient, session } from './fakeSignClient'

function setup(s = session()) {
  const fake = fakeSignClient([s])
  const clock = createFakeClock(1_700_000_000_000)
  let ends = 0
  const { provider, end, detach } = createSessionProvider(fake.client, TOPIC, { chainId: 8453, clock, onEnd: () => ends++ })
  const heard: Array<[string, unknown]> = []
  for (const event of ['accountsChanged', 'chainChanged', 'disconnect']) provider.on(event, (value) => heard.push([event, value]))
  return { fake, clock, provider, end, detach, heard, ends: () => ends }
}

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  )

describe('answered from the session: nothing goes to the phone', () => {
  it('eth_chainId, eth_accounts and eth_requestAccounts', async () => {
    const { fake, provider } = setup()
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x2105')
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([PHONE])
    expect(await provider.request({ method: 'eth_requestAccounts' })).toEqual([PHONE])
    expect(provider.address).toBe(PHONE)
    expect(fake.requests).toEqual([])
  })

  it('a switch to a chain the session holds: chainChanged, no prompt', async () => {
    const { fake, provider, heard } = setup()
    expect(await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0xa4b1' }] })).toBeNull()
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0xa4b1')
    expect(heard).toEqual([['chainChanged', '0xa4b1']])
    expect(fake.requests).toEqual([])
  })

  it('methods it does not serve (chain reads) and methods the session does not offer: 4200, nothing sent', async () => {
    const { fake, provider } = setup(session({ methods: ['eth_sendTransaction', 'personal_sign'] }))
    for (const method of ['eth_call', 'eth_getBalance', 'eth_sign', 'wallet_getCapabilities', 'wallet_sendCalls']) {
      const error = await caught(provider.request({ method, params: [] }))
      expect(error).toBeInstanceOf(WalletConnectUnsupported)
      expect(error).toMatchObject({ code: 4200 })
    }
    expect(fake.requests).toEqual([])
  })
})

describe('forwarded to the phone, once', () => {
  it('eth_sendTransaction on the chain it names, with a 5-minute expiry', async () => {
    const { fake, provider } = setup()
    const tx = { from: PHONE, to: PHONE, value: '0x1', data: '0x', chainId: '0xa4b1' }
    const hash = provider.request({ method: 'eth_sendTransaction', params: [tx] })
    await settle()
    expect(fake.requests.map((r) => r.params)).toEqual([
      { topic: TOPIC, chainId: 'eip155:42161', request: { method: 'eth_sendTransaction', params: [tx] }, expiry: 300 },
    ])
    fake.answer('0xhash')
    expect(await hash).toBe('0xhash')
  })

  it("personal_sign, eth_signTypedData_v4, wallet_sendCalls (on its chainId) and wallet_getCallsStatus on the session's chain", async () => {
    const { fake, provider } = setup()
    const asked = [
      provider.request({ method: 'personal_sign', params: ['0x68690a', PHONE] }),
      provider.request({ method: 'eth_signTypedData_v4', params: [PHONE, '{}'] }),
      provider.request({ method: 'wallet_sendCalls', params: [{ version: '2.0.0', chainId: '0xa4b1', from: PHONE, calls: [] }] }),
      provider.request({ method: 'wallet_getCallsStatus', params: ['0x01'] }),
      provider.request({ method: 'wallet_getCapabilities', params: [PHONE, ['0x2105']] }),
    ]
    await settle()
    expect(fake.requests.map((r) => [r.params.request.method, r.params.chainId])).toEqual([
      ['personal_sign', 'eip155:8453'],
      ['eth_signTypedData_v4', 'eip155:8453'],
      ['wallet_sendCalls', 'eip155:42161'],
      ['wallet_getCallsStatus', 'eip155:8453'],
      ['wallet_getCapabilities', 'eip155:8453'],
    ])
    fake.requests.forEach((r, i) => r.resolve(`answer ${i}`))
    expect(await Promise.all(asked)).toEqual(['answer 0', 'answer 1', 'answer 2', 'answer 3', 'answer 4'])
  })

  it('a transaction on a chain the session holds no account on is refused here (4901)', async () => {
    const { fake, provider } = setup()
    const error = await caught(provider.request({ method: 'eth_sendTransaction', params: [{ from: PHONE, to: PHONE, chainId: '0x1' }] }))
    expect(error).toMatchObject({ code: 4901 })
    expect(walletProblemOf(error)).toBe('disconnected')
    expect(fake.requests).toEqual([])
  })

  it('chainActions.send through it: the chain checked from the session, the transaction sent once', async () => {
    const { fake, provider } = setup()
    const sent = send(provider, { id: 8453, name: 'Base' }, PHONE, { to: PHONE, data: '0x', value: 5n })
    await settle()
    expect(fake.requests).toHaveLength(1)
    expect(fake.requests[0].params.request).toEqual({
      method: 'eth_sendTransaction',
      params: [{ from: PHONE, to: PHONE, data: '0x', value: '0x5', chainId: '0x2105' }],
    })
    fake.answer('0xabc')
    expect(await sent).toBe('0xabc')
  })
})

describe('how a request ends', () => {
  it.each([
    [4001, 'User rejected the request.'],
    [5000, 'User rejected.'],
  ])('the phone says no (%i): WalletConnectRejected, code 4001, "rejected" for the flows', async (code, message) => {
    const { fake, provider } = setup()
    const asked = caught(provider.request({ method: 'personal_sign', params: ['0x00', PHONE] }))
    await settle()
    fake.fail({ code, message })
    const error = await asked
    expect(error).toBeInstanceOf(WalletConnectRejected)
    expect(error).toMatchObject({ code: 4001 })
    expect(walletProblemOf(error)).toBe('rejected')
  })

  it("through viem's custom transport a rejection is viem's UserRejectedRequestError, and is not sent again", async () => {
    const { fake, provider } = setup()
    const client = createClient({ transport: custom(provider) })
    const asked = caught(client.request({ method: 'personal_sign', params: ['0x00', PHONE] } as never))
    await settle()
    fake.fail({ code: 4001, message: 'User rejected the request.' })
    expect(await asked).toBeInstanceOf(UserRejectedRequestError)
    await settle()
    expect(fake.requests).toHaveLength(1)
  })

  it('a phone that never answers: WalletConnectTimeout after 5 minutes for a prompt, never sent again, a late answer ignored', async () => {
    const { fake, clock, provider } = setup()
    const client = createClient({ transport: custom(provider) })
    const asked = caught(client.request({ method: 'eth_sendTransaction', params: [{ from: PHONE, to: PHONE }] } as never))
    await clock.advance(PROMPT_MS - 1)
    expect(fake.requests).toHaveLength(1)
    await clock.advance(1)
    const error = (await asked) as Error
    // viem wraps -32002 without retrying it; the flows read "a request is waiting in your wallet".
    expect(error).toBeInstanceOf(ResourceUnavailableRpcError)
    expect((error as ResourceUnavailableRpcError).walk((e) => e instanceof WalletConnectTimeout)).toBeInstanceOf(WalletConnectTimeout)
    expect(walletProblemOf(error)).toBe('pending')
    fake.answer('0xlate')
    await clock.advance(60_000)
    expect(fake.requests).toHaveLength(1)
    expect(clock.pending()).toBe(0)
  })

  it('a read the phone does not answer ends after 30 s', async () => {
    const { clock, provider } = setup()
    const asked = caught(provider.request({ method: 'wallet_getCapabilities', params: [PHONE, ['0x2105']] }))
    await clock.advance(READ_MS)
    expect(await asked).toMatchObject({ name: 'WalletConnectTimeout', code: -32002, method: 'wallet_getCapabilities' })
  })

  it("sign-client's own expiry is a timeout too; an answer without a code is the relay's failure", async () => {
    const { fake, provider } = setup()
    const expired = caught(provider.request({ method: 'personal_sign', params: ['0x00', PHONE] }))
    await settle()
    fake.fail(new Error('Request expired. Please try again.'))
    expect(await expired).toBeInstanceOf(WalletConnectTimeout)
    const offline = caught(provider.request({ method: 'personal_sign', params: ['0x00', PHONE] }))
    await settle()
    fake.fail(new Error('No internet connection detected. Please restart your network and try again.'))
    const error = await offline
    expect(error).toBeInstanceOf(WalletConnectUnreachable)
    expect(walletProblemOf(error)).toBe('disconnected')
  })

  it("the wallet's other errors keep its code: 4902 is an unknown chain to the flows", async () => {
    const { fake, provider } = setup()
    const asked = caught(provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] }))
    await settle()
    expect(fake.requests[0].params).toMatchObject({ chainId: 'eip155:8453', request: { method: 'wallet_switchEthereumChain' } })
    fake.fail({ code: 4902, message: 'chain 1: not added' })
    const error = await asked
    expect(error).toBeInstanceOf(WalletConnectWalletError)
    expect(error).toMatchObject({ code: 4902 })
    expect(walletProblemOf(error)).toBe('unsupportedChain')
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x2105')
  })
})

describe('the session ends mid-flow', () => {
  it('the phone ends it: pending requests fail with WalletConnectSessionEnded, disconnect is heard once, nothing more is sent', async () => {
    const { fake, provider, heard, ends } = setup()
    const asked = caught(provider.request({ method: 'eth_sendTransaction', params: [{ from: PHONE, to: PHONE }] }))
    await settle()
    fake.store.delete(TOPIC)
    fake.emit('session_delete', { id: 1, topic: TOPIC })
    fake.emit('session_delete', { id: 1, topic: TOPIC })
    const error = await asked
    expect(error).toBeInstanceOf(WalletConnectSessionEnded)
    expect(error).toMatchObject({ code: 4900, by: 'wallet' })
    // Said as the phone's end of the connection, not as a wallet to unlock.
    expect(walletProblemOf(error)).toBe('ended')
    expect(heard).toEqual([['disconnect', error]])
    expect(ends()).toBe(1)
    expect(await caught(provider.request({ method: 'personal_sign', params: ['0x00', PHONE] }))).toBe(error)
    expect(await caught(provider.request({ method: 'eth_chainId' }))).toBe(error)
    expect(fake.requests).toHaveLength(1)
    expect(fake.listening('session_event')).toBe(0)
  })

  it("sign-client failing a pending request with USER_DISCONNECTED (6000), as it does when the phone ends the session, is the session's end", async () => {
    const { fake, provider, heard } = setup()
    const asked = caught(provider.request({ method: 'personal_sign', params: ['0x00', PHONE] }))
    await settle()
    fake.fail({ code: 6000, message: 'User disconnected.' })
    const error = await asked
    expect(error).toMatchObject({ name: 'WalletConnectSessionEnded', code: 4900, by: 'wallet' })
    expect(heard).toEqual([['disconnect', error]])
    fake.emit('session_delete', { id: 1, topic: TOPIC })
    expect(heard).toHaveLength(1)
  })

  it('it expires: disconnect by expiry; another topic is not this session', async () => {
    const { fake, heard } = setup()
    fake.emit('session_expire', { topic: 'other' })
    expect(heard).toEqual([])
    fake.emit('session_expire', { topic: TOPIC })
    expect(heard).toEqual([['disconnect', expect.objectContaining({ by: 'expiry' })]])
  })

  it('a session gone from the store (deleted elsewhere) ends at the next request', async () => {
    const { fake, provider, heard } = setup()
    fake.store.delete(TOPIC)
    expect(await caught(provider.request({ method: 'personal_sign', params: ['0x00', PHONE] }))).toBeInstanceOf(WalletConnectSessionEnded)
    expect(heard.map(([event]) => event)).toEqual(['disconnect'])
    expect(fake.requests).toEqual([])
  })

  it('detached (the widget unmounted): pending requests abort, nothing is heard, the session is not ended', async () => {
    const { fake, provider, heard, detach, ends } = setup()
    const asked = caught(provider.request({ method: 'personal_sign', params: ['0x00', PHONE] }))
    await settle()
    detach()
    expect(await asked).toMatchObject({ name: 'AbortError' })
    expect(heard).toEqual([])
    expect(ends()).toBe(0)
    expect(fake.store.has(TOPIC)).toBe(true)
  })
})

describe("the phone's events", () => {
  it('chainChanged and accountsChanged for this topic, each heard once and only on a change', async () => {
    const { fake, provider, heard } = setup()
    const event = (name: string, data: unknown, topic = TOPIC) =>
      fake.emit('session_event', { id: 1, topic, params: { event: { name, data }, chainId: 'eip155:42161' } })
    event('chainChanged', 42161, 'another topic')
    event('chainChanged', 42161)
    event('chainChanged', '0xa4b1')
    const other = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    event('accountsChanged', [`eip155:42161:${other}`])
    event('accountsChanged', [other])
    expect(heard).toEqual([
      ['chainChanged', '0xa4b1'],
      ['accountsChanged', [other]],
    ])
    expect(provider.chainId).toBe(42161)
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([other])
  })

  it('a session update that drops the current chain moves to one it holds', async () => {
    const { fake, provider, heard } = setup()
    fake.store.set(TOPIC, session({ chains: [42161] }))
    fake.emit('session_update', { id: 1, topic: TOPIC, params: { namespaces: fake.store.get(TOPIC)!.namespaces } })
    expect(heard).toEqual([['chainChanged', '0xa4b1']])
    expect(provider.chainId).toBe(42161)
  })
})

describe('chainActions.ensureChain over it (4902 → add → switch)', () => {
  it('asks the phone to switch, adds the chain it does not know, then switches here', async () => {
    const { fake, provider, heard } = setup()
    const chain = { id: 10, name: 'OP', rpcUrl: 'https://op.example' }
    const ensured = ensureChain(provider, chain)
    await settle()
    expect(fake.requests.map((r) => r.params.request.method)).toEqual(['wallet_switchEthereumChain'])
    fake.fail({ code: 4902, message: 'unknown chain' })
    await settle()
    expect(fake.requests.map((r) => r.params.request.method)).toEqual(['wallet_switchEthereumChain', 'wallet_addEthereumChain'])
    // The phone adds it to the session, then answers.
    fake.store.set(TOPIC, session({ chains: [8453, 42161, 10] }))
    fake.emit('session_update', { id: 2, topic: TOPIC, params: { namespaces: fake.store.get(TOPIC)!.namespaces } })
    fake.answer(null)
    expect(await ensured).toBe(true)
    expect(fake.requests).toHaveLength(2)
    expect(heard).toEqual([['chainChanged', '0xa']])
  })
})
