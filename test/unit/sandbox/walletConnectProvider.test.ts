// The widget's WalletConnect provider (src/wallet/walletConnect) on the real sign-client, against
// the sandbox's local relay and phone wallet on two anvil chains: connect from the wc: URI, sign,
// send, a rejection, a switch to a chain the phone must add, a restart from storage, a timeout that
// leaves the request with the phone, the phone ending the session, disconnect. Nothing leaves 127.0.0.1.
import { createPublicClient, http, toHex, verifyMessage, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
// @ts-expect-error: plain ESM module of the sandbox
import { startWalletConnect } from '../../sandbox/walletconnect/index.mjs'
import { walletProblemOf } from '../../../src/errors/WalletError'
import { ensureChain, send } from '../../../src/wallet/chainActions'
import { type WalletConnect, createWalletConnect } from '../../../src/wallet/walletConnect/client'
import { WalletConnectRejected, WalletConnectSessionEnded, WalletConnectTimeout } from '../../../src/wallet/walletConnect/errors'
import { PROMPT_MS, type WalletConnectProvider } from '../../../src/wallet/walletConnect/provider'
import { SESSION_MARK } from '../../../src/wallet/walletConnect/settings'
import { webKeyValueStorage } from '../../../src/wallet/walletConnect/storage'
import { createFakeClock } from '../helpers/fakeClock'
import { memoryStorage } from '../helpers/memoryStorage'
import { guardOffline, startChains, type AnvilNode } from './offline'

// A restarted client with the same storage prefix would otherwise be the first one's core.
process.env.DISABLE_GLOBAL_CORE = 'true'

const { outside, restore } = guardOffline()

const SOURCE = 8453
const DEST = 42161
const scope = { partner: 'acme-shop', apiBase: 'http://127.0.0.1:8787/api' }
// What survives a reload: core's records and the widget's note, in the partner's storage.
const records = memoryStorage()
const marks = memoryStorage()
const clock = createFakeClock(Date.now())

let nodes: AnvilNode[]
let stack: { relayUrl: string; phone: any; relay: { seen: Map<string, number> }; close: () => Promise<void> }
let wc: WalletConnect
let provider: WalletConnectProvider
const clients: WalletConnect[] = []

const open = () => {
  const made = createWalletConnect({
    config: { projectId: 'sandbox', relayUrl: stack.relayUrl },
    scope,
    storage: webKeyValueStorage(records),
    marks,
    clock,
    origin: 'http://127.0.0.1:5173',
    appName: 'Stablecoin widget (test)',
  })
  clients.push(made)
  return made
}
const topicOf = () => stack.phone.state().sessions[0]?.topic as string

beforeAll(async () => {
  nodes = await startChains(SOURCE, DEST)
  stack = await startWalletConnect({
    chains: [
      { id: SOURCE, rpcUrl: nodes[0].url },
      { id: DEST, rpcUrl: nodes[1].url },
    ],
  })
  wc = open()
}, 30_000)
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await stack?.close()
  await Promise.all((nodes ?? []).map((n) => n.stop()))
  restore()
})

describe('the WalletConnect provider against the sandbox phone', () => {
  it('connects from the wc: URI the phone pairs with; the account and chain come from the session', async () => {
    stack.phone.setMode('hold')
    let uri = ''
    const connecting = wc.connect({ chains: [SOURCE, DEST], onUri: (u) => (uri = u) })
    await vi.waitFor(() => expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/), { timeout: 20_000, interval: 50 })
    await stack.phone.pair(uri)
    const proposal = await stack.phone.next('proposal')
    expect(proposal.peer).toMatchObject({ name: 'Stablecoin widget (test)', url: 'http://127.0.0.1:5173' })
    await stack.phone.approve(proposal.id)
    const connected = await connecting
    provider = connected.provider
    expect(connected).toMatchObject({ address: stack.phone.address, chainId: SOURCE })
    expect(await provider.request({ method: 'eth_chainId' })).toBe(toHex(SOURCE))
    expect(JSON.parse(marks.getItem(SESSION_MARK)!).expiry).toBeGreaterThan(Date.now() / 1000)
  }, 30_000)

  it('personal_sign: signed on the phone by its account', async () => {
    stack.phone.setMode('auto-approve')
    const signature = (await provider.request({ method: 'personal_sign', params: [toHex('hello from the widget'), stack.phone.address] })) as Hex
    expect(await verifyMessage({ address: stack.phone.address, message: 'hello from the widget', signature })).toBe(true)
  }, 30_000)

  it("eth_sendTransaction (chainActions.send): sent once by the phone, mined on the session's chain", async () => {
    const before = stack.relay.seen.get('irn_publish') ?? 0
    const hash = await send(provider, { id: SOURCE, name: 'Base' }, stack.phone.address, {
      to: '0x000000000000000000000000000000000000dEaD',
      data: '0x',
      value: 10n,
    })
    const receipt = await createPublicClient({ transport: http(nodes[0].url) }).waitForTransactionReceipt({ hash, pollingInterval: 50 })
    expect(receipt).toMatchObject({ status: 'success', from: stack.phone.address.toLowerCase() })
    expect(stack.phone.state().answered.filter((a: { method: string }) => a.method === 'eth_sendTransaction')).toHaveLength(1)
    // The widget's request and the phone's answer: one publish each.
    expect((stack.relay.seen.get('irn_publish') ?? 0) - before).toBe(2)
  }, 30_000)

  it("a rejection on the phone is the flows' 'rejected' (4001)", async () => {
    stack.phone.setMode('hold')
    const asked = provider
      .request({ method: 'eth_sendTransaction', params: [{ from: stack.phone.address, to: stack.phone.address, value: '0x1' }] })
      .catch((e: unknown) => e)
    const request = await stack.phone.next('request')
    await stack.phone.reject(request.id)
    const error = await asked
    expect(error).toBeInstanceOf(WalletConnectRejected)
    expect(walletProblemOf(error)).toBe('rejected')
  }, 30_000)

  it('ensureChain to a chain the phone does not hold: 4902, the phone adds it and updates the session, the switch happens here', async () => {
    stack.phone.setMode('auto-approve')
    const heard: unknown[] = []
    provider.on('chainChanged', (id) => heard.push(id))
    expect(await ensureChain(provider, { id: 31337, name: 'Local', rpcUrl: nodes[0].url })).toBe(true)
    expect(heard).toEqual(['0x7a69'])
    expect(
      stack.phone
        .state()
        .answered.map((a: { method: string; outcome: string }) => `${a.method} ${a.outcome}`)
        .slice(-2),
    ).toEqual(['wallet_switchEthereumChain failed', 'wallet_addEthereumChain approved'])
    // Back to a chain the session holds: no prompt.
    const answered = stack.phone.state().answered.length
    expect(await ensureChain(provider, { id: SOURCE, name: 'Base' })).toBe(true)
    expect(stack.phone.state().answered).toHaveLength(answered)
  }, 30_000)

  it('a phone that does not answer: WalletConnectTimeout after 5 minutes, the request still with the phone, never sent again', async () => {
    stack.phone.setMode('hold')
    const asked = provider.request({ method: 'personal_sign', params: [toHex('are you there?'), stack.phone.address] }).catch((e: unknown) => e)
    const request = await stack.phone.next('request')
    const publishes = stack.relay.seen.get('irn_publish')
    await clock.advance(PROMPT_MS)
    const error = await asked
    expect(error).toBeInstanceOf(WalletConnectTimeout)
    expect(walletProblemOf(error)).toBe('pending')
    expect(stack.phone.state().pending.map((p: { id: number }) => p.id)).toEqual([request.id])
    expect(stack.relay.seen.get('irn_publish')).toBe(publishes)
    // Its late answer changes nothing here.
    await stack.phone.reject(request.id)
  }, 30_000)

  it('restores the session in a new client from the same storage, and signs there', async () => {
    await wc.close()
    stack.phone.setMode('auto-approve')
    wc = open()
    const restored = await wc.restore({ chains: [DEST] })
    expect(restored).toMatchObject({ address: stack.phone.address, chainId: DEST })
    provider = restored!.provider
    const signature = (await provider.request({ method: 'personal_sign', params: [toHex('after a reload'), stack.phone.address] })) as Hex
    expect(await verifyMessage({ address: stack.phone.address, message: 'after a reload', signature })).toBe(true)
  }, 30_000)

  it('disconnect ends the session on the phone too, and the note', async () => {
    await wc.disconnect()
    await vi.waitFor(() => expect(stack.phone.state().sessions).toEqual([]), { timeout: 20_000, interval: 100 })
    expect(marks.getItem(SESSION_MARK)).toBeNull()
    expect(await wc.restore()).toBeUndefined()
  }, 30_000)

  it('the phone ends the session mid-request: the request fails as the session ended, disconnect is heard', async () => {
    stack.phone.setMode('auto-approve')
    let uri = ''
    const connecting = wc.connect({ chains: [SOURCE], onUri: (u) => (uri = u) })
    await vi.waitFor(() => expect(uri).not.toBe(''), { timeout: 20_000, interval: 50 })
    await stack.phone.pair(uri)
    provider = (await connecting).provider
    const ended = new Promise((resolve) => provider.on('disconnect', resolve))
    stack.phone.setMode('hold')
    const asked = provider.request({ method: 'personal_sign', params: [toHex('mid-flow'), stack.phone.address] }).catch((e: unknown) => e)
    await stack.phone.next('request')
    await stack.phone.disconnect(topicOf())
    const error = await asked
    expect(error).toBeInstanceOf(WalletConnectSessionEnded)
    expect(error).toMatchObject({ by: 'wallet' })
    expect(walletProblemOf(error)).toBe('ended')
    expect(await ended).toBe(error)
    expect(marks.getItem(SESSION_MARK)).toBeNull()
  }, 30_000)

  it('reached nothing but 127.0.0.1', () => {
    expect(outside).toEqual([])
  })
})
