// The sandbox's WalletConnect relay, spoken to in raw JSON-RPC: what it holds, for whom, how long,
// and what it refuses (walletConnect.test.ts drives it with the real clients).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
// @ts-expect-error: plain ESM module of the sandbox
import { startRelay } from '../../sandbox/walletconnect/relay.mjs'

type Message = { id: string | number; method?: string; params?: any; result?: unknown; error?: { code: number } }
let clock = 1_000_000
let relay: { url: string; held: (topic: string) => number; close: () => Promise<void> }
const sockets: WebSocket[] = []

beforeAll(async () => {
  relay = await startRelay({ port: 0, now: () => clock })
})
afterAll(async () => {
  sockets.forEach((s) => s.close())
  await relay?.close()
})

/** A client named by the `iss` of its (unsigned) auth JWT; `next()` reads what the relay sent, in order. */
async function client(iss: string) {
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const ws = new WebSocket(`${relay.url}/?auth=${b64({ alg: 'EdDSA' })}.${b64({ iss })}.c2ln&projectId=sandbox`)
  sockets.push(ws)
  const inbox: Message[] = []
  const waiting: Array<(m: Message) => void> = []
  ws.on('message', (data) => {
    const message = JSON.parse(String(data))
    const wake = waiting.shift()
    if (wake) wake(message)
    else inbox.push(message)
  })
  await new Promise((resolve) => ws.once('open', resolve))
  let id = 0
  return {
    send: (method: string, params: object) => {
      ws.send(JSON.stringify({ id: `${iss}-${++id}`, jsonrpc: '2.0', method, params }))
      return `${iss}-${id}`
    },
    ack: (message: Message) => ws.send(JSON.stringify({ id: message.id, jsonrpc: '2.0', result: true })),
    next: () => (inbox.length ? Promise.resolve(inbox.shift()!) : new Promise<Message>((resolve) => waiting.push(resolve))),
    close: () => ws.close(),
  }
}
type Client = Awaited<ReturnType<typeof client>>
/** Sends a request the relay does not answer and reads up to its error: what came before it. */
async function drain(c: Client) {
  const marker = c.send('irn_nothing', {})
  const before: Message[] = []
  for (let m = await c.next(); m.id !== marker; m = await c.next()) before.push(m)
  return before
}

describe('the local relay', () => {
  it('pushes a publication to the topic subscribers, as irn_subscription, not back to its publisher', async () => {
    const [wallet, dapp] = [await client('did:key:wallet1'), await client('did:key:dapp1')]
    const sub = wallet.send('irn_subscribe', { topic: 't1' })
    expect(await wallet.next()).toMatchObject({ id: sub, result: expect.stringMatching(/^[0-9a-f]{64}$/) })
    dapp.send('irn_subscribe', { topic: 't1' })
    await dapp.next()
    const pub = dapp.send('irn_publish', { topic: 't1', message: 'm1', ttl: 300, tag: 1108, prompt: false })
    expect(await dapp.next()).toMatchObject({ id: pub, result: true })
    expect(await wallet.next()).toMatchObject({
      method: 'irn_subscription',
      params: { id: expect.any(String), data: { topic: 't1', message: 'm1', publishedAt: clock, tag: 1108 } },
    })
    expect(await drain(dapp)).toEqual([])
  })

  it('holds a message for a client that subscribes later, after the answer to its subscribe, until that client acks it', async () => {
    const dapp = await client('did:key:dapp2')
    dapp.send('irn_publish', { topic: 't2', message: 'm2', ttl: 300 })
    await dapp.next()
    expect(relay.held('t2')).toBe(1)
    const wallet = await client('did:key:wallet2')
    const sub = wallet.send('irn_subscribe', { topic: 't2' })
    expect(await wallet.next()).toMatchObject({ id: sub })
    // Not acked: a resubscribe (a reconnect's irn_batchSubscribe) gets it again.
    expect(await wallet.next()).toMatchObject({ method: 'irn_subscription', params: { data: { message: 'm2' } } })
    wallet.send('irn_batchSubscribe', { topics: ['t2'] })
    expect((await wallet.next()).result).toHaveLength(1)
    const again = await wallet.next()
    expect(again).toMatchObject({ params: { data: { message: 'm2' } } })
    // Acked: the same client (its JWT's iss), even on a new socket, does not get it again.
    wallet.ack(again)
    wallet.close()
    const restarted = await client('did:key:wallet2')
    restarted.send('irn_subscribe', { topic: 't2' })
    await restarted.next()
    expect(await drain(restarted)).toEqual([])
    // Another client still does.
    const other = await client('did:key:wallet3')
    other.send('irn_subscribe', { topic: 't2' })
    await other.next()
    expect(await drain(other)).toMatchObject([{ params: { data: { message: 'm2' } } }])
  })

  it('lets a message go once its ttl has passed', async () => {
    const dapp = await client('did:key:dapp4')
    dapp.send('irn_publish', { topic: 't4', message: 'm4', ttl: 60 })
    await dapp.next()
    clock += 60_000
    expect(relay.held('t4')).toBe(0)
    const wallet = await client('did:key:wallet4')
    wallet.send('irn_subscribe', { topic: 't4' })
    await wallet.next()
    expect(await drain(wallet)).toEqual([])
  })

  it('stops pushing after irn_unsubscribe', async () => {
    const [wallet, dapp] = [await client('did:key:wallet5'), await client('did:key:dapp5')]
    wallet.send('irn_subscribe', { topic: 't5' })
    const { result: id } = await wallet.next()
    wallet.send('irn_unsubscribe', { topic: 't5', id })
    expect((await wallet.next()).result).toBe(true)
    dapp.send('irn_publish', { topic: 't5', message: 'm5', ttl: 300 })
    await dapp.next()
    expect(await drain(wallet)).toEqual([])
  })

  it('wc_proposeSession and wc_approveSession subscribe their sender and publish each part on its topic', async () => {
    const [wallet, dapp] = [await client('did:key:wallet6'), await client('did:key:dapp6')]
    dapp.send('wc_proposeSession', { pairingTopic: 'pairing6', sessionProposal: 'proposal', ttl: 300, attestation: 'jwt' })
    expect((await dapp.next()).result).toBe(true)
    wallet.send('irn_subscribe', { topic: 'pairing6' })
    await wallet.next()
    expect(await wallet.next()).toMatchObject({ params: { data: { topic: 'pairing6', message: 'proposal', attestation: 'jwt' } } })
    wallet.send('wc_approveSession', {
      pairingTopic: 'pairing6',
      sessionTopic: 'session6',
      sessionProposalResponse: 'response',
      sessionSettlementRequest: 'settle',
      ttl: 300,
    })
    expect((await wallet.next()).result).toBe(true)
    // The dapp is on the pairing topic by its proposal; it subscribes to the session topic itself.
    expect(await dapp.next()).toMatchObject({ params: { data: { topic: 'pairing6', message: 'response' } } })
    dapp.send('irn_subscribe', { topic: 'session6' })
    await dapp.next()
    expect(await dapp.next()).toMatchObject({ params: { data: { topic: 'session6', message: 'settle' } } })
    // The wallet is on the session topic by its approval.
    dapp.send('irn_publish', { topic: 'session6', message: 'request', ttl: 300 })
    await dapp.next()
    expect(await wallet.next()).toMatchObject({ params: { data: { topic: 'session6', message: 'request' } } })
  })

  it('answers a method it does not know -32601, and a publish without a message -32602', async () => {
    const c = await client('did:key:other')
    c.send('irn_batchFetchMessages', { topics: ['t1'] })
    expect(await c.next()).toMatchObject({ error: { code: -32601 } })
    c.send('irn_publish', { topic: 't1', ttl: 300 })
    expect(await c.next()).toMatchObject({ error: { code: -32602 } })
  })
})
