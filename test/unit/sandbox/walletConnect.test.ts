// WalletConnect offline: a dapp-side sign-client, as the widget will use it, reaches the sandbox's
// phone wallet through the local relay, on real anvil chains, and nothing leaves 127.0.0.1.
import { SignClient } from '@walletconnect/sign-client'
import { createPublicClient, http, parseEther, toHex, verifyMessage, verifyTypedData, type Address, type Hex } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
// @ts-expect-error: plain ESM module of the sandbox
import { memoryStorage } from '../../sandbox/walletconnect/memoryStorage.mjs'
// @ts-expect-error: plain ESM module of the sandbox
import { offlineOptions } from '../../sandbox/walletconnect/offline.mjs'
// @ts-expect-error: plain ESM module of the sandbox
import { servePhoneControl } from '../../sandbox/walletconnect/phoneControl.mjs'
// @ts-expect-error: plain ESM module of the sandbox
import { startPhoneWallet } from '../../sandbox/walletconnect/phoneWallet.mjs'
// @ts-expect-error: plain ESM module of the sandbox
import { startRelay } from '../../sandbox/walletconnect/relay.mjs'
import { guardOffline, startChains, type AnvilNode } from './offline'

// Two clients with one storage prefix in one process would otherwise share core's singleton, and
// the "restarted" dapp would be the first one's core.
process.env.DISABLE_GLOBAL_CORE = 'true'

const { outside, restore } = guardOffline()

const SOURCE = 8453
const DEST = 42161
const METADATA = { name: 'Stablecoin widget (test)', description: 'the dapp side', url: 'http://127.0.0.1:5173', icons: [] }
const NAMESPACES = {
  eip155: {
    chains: [`eip155:${SOURCE}`, `eip155:${DEST}`],
    methods: [
      'eth_sendTransaction',
      'personal_sign',
      'eth_signTypedData_v4',
      'wallet_switchEthereumChain',
      'wallet_addEthereumChain',
      'wallet_sendCalls',
      'wallet_getCallsStatus',
    ],
    events: ['chainChanged', 'accountsChanged'],
  },
}

type Dapp = Awaited<ReturnType<typeof SignClient.init>>
let nodes: AnvilNode[]
let relay: { url: string; seen: Map<string, number>; held: (topic: string) => number; close: () => Promise<void> }
let phone: any
const storage = memoryStorage()
const dapps: Dapp[] = []
let topic: string

const startDapp = async () => {
  const dapp = await SignClient.init({ ...offlineOptions({ relayUrl: relay.url, storage, prefix: 'widget' }), logger: 'silent', metadata: METADATA })
  dapps.push(dapp)
  return dapp
}
const stopDapp = async (dapp: Dapp) => {
  await dapp.core.relayer.transportClose()
  dapp.core.heartbeat.stop()
}
const ask = (dapp: Dapp, method: string, params: unknown[], chainId = SOURCE) =>
  dapp.request<any>({ topic, chainId: `eip155:${chainId}`, request: { method, params } })

beforeAll(async () => {
  nodes = await startChains(SOURCE, DEST)
  relay = await startRelay({ port: 0 })
  phone = await startPhoneWallet({
    relayUrl: relay.url,
    chains: [
      { id: SOURCE, rpcUrl: nodes[0].url },
      { id: DEST, rpcUrl: nodes[1].url },
    ],
  })
}, 30_000)
afterAll(async () => {
  await Promise.all(dapps.map(stopDapp))
  await phone?.close()
  await relay?.close()
  await Promise.all((nodes ?? []).map((n) => n.stop()))
  restore()
})

describe('a dapp and the phone wallet through the local relay', () => {
  it('a rejected proposal reaches the dapp as WalletConnect USER_REJECTED (5000)', async () => {
    phone.setMode('hold')
    const dapp = await startDapp()
    const { uri, approval } = await dapp.connect({ optionalNamespaces: NAMESPACES })
    const outcome = approval().catch((error) => error)
    await phone.pair(uri)
    await phone.next('proposal')
    await phone.reject()
    expect(await outcome).toMatchObject({ code: 5000, message: 'User rejected.' })
  }, 30_000)

  it('refuses a proposal for chains it does not hold (5100), even when approving by itself', async () => {
    phone.setMode('auto-approve')
    const { uri, approval } = await dapps[0].connect({ optionalNamespaces: { eip155: { chains: ['eip155:1'], methods: ['personal_sign'], events: [] } } })
    const outcome = approval().catch((error) => error)
    await phone.pair(uri)
    expect(await outcome).toMatchObject({ code: 5100 })
  }, 30_000)

  it('pairs from the wc: URI and settles a session, the proposal held by the relay until the wallet subscribed', async () => {
    phone.setMode('hold')
    const dapp = dapps[0]
    const { uri, approval } = await dapp.connect({ optionalNamespaces: NAMESPACES })
    const pairingTopic = new URL(uri!).pathname.split('@')[0]
    expect(relay.held(pairingTopic)).toBe(1)
    await phone.pair(uri)
    const proposal = await phone.next('proposal')
    expect(proposal.peer).toMatchObject({ name: METADATA.name, url: METADATA.url })
    await phone.approve(proposal.id)
    const session = await approval()
    topic = session.topic
    expect(session.namespaces.eip155.accounts).toEqual([`eip155:${SOURCE}:${phone.address}`, `eip155:${DEST}:${phone.address}`])
    expect(phone.state().sessions.map((s: { topic: string }) => s.topic)).toEqual([topic])
    // What 2.25 sent: its connect and approve go through the relay's own session methods.
    expect([...relay.seen.keys()].sort()).toEqual(['irn_publish', 'irn_subscribe', 'wc_approveSession', 'wc_proposeSession'])
  }, 30_000)

  it('answers personal_sign with a SIWE message, signed by the dev account', async () => {
    phone.setMode('auto-approve')
    const message = createSiweMessage({
      address: phone.address,
      chainId: SOURCE,
      domain: '127.0.0.1:5173',
      nonce: 'sandbox12345',
      uri: METADATA.url,
      version: '1',
      issuedAt: new Date(),
    })
    const signature: Hex = await ask(dapps[0], 'personal_sign', [toHex(message), phone.address])
    expect(await verifyMessage({ address: phone.address, message, signature })).toBe(true)
  }, 30_000)

  it('answers eth_signTypedData_v4', async () => {
    phone.setMode('auto-approve')
    const typed = {
      domain: { name: 'Sandbox', version: '1', chainId: SOURCE },
      types: { Note: [{ name: 'text', type: 'string' }] },
      primaryType: 'Note' as const,
      message: { text: 'hello' },
    }
    const signature: Hex = await ask(dapps[0], 'eth_signTypedData_v4', [phone.address, JSON.stringify(typed)])
    expect(await verifyTypedData({ address: phone.address, ...typed, signature })).toBe(true)
  }, 30_000)

  it('sends an eth_sendTransaction on the anvil chain and answers its hash', async () => {
    const to: Address = '0x000000000000000000000000000000000000dEaD'
    const hash: Hex = await ask(dapps[0], 'eth_sendTransaction', [{ from: phone.address, to, value: toHex(parseEther('0.01')) }])
    const receipt = await createPublicClient({ transport: http(nodes[0].url) }).waitForTransactionReceipt({ hash, pollingInterval: 50 })
    expect(receipt).toMatchObject({ status: 'success', from: phone.address.toLowerCase(), to: to.toLowerCase() })
  }, 30_000)

  it('switches chain (chainChanged reaches the dapp) and sends EIP-5792 calls on the other chain', async () => {
    const changed = new Promise((resolve) => dapps[0].once('session_event', ({ params }) => resolve(params)))
    expect(await ask(dapps[0], 'wallet_switchEthereumChain', [{ chainId: toHex(DEST) }])).toBeNull()
    expect(await changed).toMatchObject({ chainId: `eip155:${DEST}`, event: { name: 'chainChanged', data: DEST } })
    const calls = [
      { to: '0x000000000000000000000000000000000000dEaD', value: '0x1' },
      { to: '0x000000000000000000000000000000000000bEEF', value: '0x2' },
    ]
    const { id } = await ask(
      dapps[0],
      'wallet_sendCalls',
      [{ version: '2.0.0', chainId: toHex(DEST), from: phone.address, calls, atomicRequired: false }],
      DEST,
    )
    await vi.waitFor(
      async () =>
        expect(await ask(dapps[0], 'wallet_getCallsStatus', [id], DEST)).toMatchObject({
          status: 200,
          atomic: false,
          receipts: [{ status: '0x1' }, { status: '0x1' }],
        }),
      { timeout: 20_000, interval: 200 },
    )
  }, 30_000)

  it('adds a chain it does not hold and updates the session with it', async () => {
    const updated = new Promise((resolve) => dapps[0].once('session_update', ({ params }) => resolve(params.namespaces.eip155.chains)))
    expect(
      await ask(dapps[0], 'wallet_addEthereumChain', [
        { chainId: toHex(31337), chainName: 'Local', rpcUrls: [nodes[0].url], nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } },
      ]),
    ).toBeNull()
    expect(await updated).toEqual([`eip155:${SOURCE}`, `eip155:${DEST}`, 'eip155:31337'])
    expect(dapps[0].session.get(topic).namespaces.eip155.accounts).toContain(`eip155:31337:${phone.address}`)
  }, 30_000)

  it('a rejected request reaches the dapp as EIP-1193 "User Rejected Request" (4001)', async () => {
    phone.setMode('hold')
    const outcome = ask(dapps[0], 'eth_sendTransaction', [{ from: phone.address, to: phone.address, value: '0x1' }]).catch((error) => error)
    const request = await phone.next('request')
    expect(request).toMatchObject({ method: 'eth_sendTransaction', chainId: `eip155:${SOURCE}`, peer: { url: METADATA.url } })
    await phone.reject(request.id)
    expect(await outcome).toMatchObject({ code: 4001, message: 'User rejected the request.' })
  }, 30_000)

  it('is driven by its control API, which answers no page but a loopback one', async () => {
    const control = await servePhoneControl(phone)
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(control.url + path, { method: 'POST', headers, body: JSON.stringify(body) })
    try {
      phone.setMode('hold')
      const outcome = ask(dapps[0], 'personal_sign', [toHex('from a page'), phone.address]).catch((error) => error)
      // A simple cross-origin POST (text/plain, no preflight) from a page elsewhere approves nothing.
      const { id } = await phone.next('request')
      const refused = await post('/approve', { id }, { Origin: 'https://evil.example', 'Content-Type': 'text/plain' })
      expect(refused.status).toBe(403)
      expect(phone.state().pending.map((p: { id: number }) => p.id)).toEqual([id])
      expect((await post('/pair', { uri: 'https://evil.example' })).status).toBe(400)
      const rejected = await post('/reject', { id, code: 5000, message: 'User rejected.' }, { Origin: 'http://127.0.0.1:5173' })
      expect(await rejected.json()).toEqual({ ok: true })
      expect(await outcome).toMatchObject({ code: 5000 })
      expect(await (await fetch(`${control.url}/state`)).json()).toMatchObject({ mode: 'hold', address: phone.address, pending: [] })
    } finally {
      await control.close()
    }
  }, 30_000)

  it('keeps the session across a dapp restart with the same storage, answers there, and disconnects', async () => {
    await stopDapp(dapps[0])
    phone.setMode('auto-approve')
    const dapp = await startDapp()
    expect(dapp.session.getAll().map((s) => s.topic)).toEqual([topic])
    const signature: Hex = await ask(dapp, 'personal_sign', [toHex('after a restart'), phone.address])
    expect(await verifyMessage({ address: phone.address, message: 'after a restart', signature })).toBe(true)
    await dapp.disconnect({ topic, reason: { code: 6000, message: 'User disconnected.' } })
    expect(dapp.session.getAll()).toEqual([])
    await vi.waitFor(() => expect(phone.state().sessions).toEqual([]), { timeout: 20_000, interval: 100 })
    // The restarted client resubscribed its topics in one batch.
    expect(relay.seen.get('irn_batchSubscribe')).toBeGreaterThan(0)
  }, 30_000)

  it('reached nothing but 127.0.0.1', () => {
    expect(outside).toEqual([])
  })
})
