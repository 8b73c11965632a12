// @vitest-environment node
// Hostile requests against /deposit/sent: "a refusal never tells one user what belongs to
// another". Alice names Bob's recorded transaction, and one nobody recorded: the two answers must be
// the same in every byte, with the same reads behind them, and the service asked about neither.
// The chain is a fake JSON-RPC server on 127.0.0.1 (the kit reads receipts through chains[…].rpcUrl).
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPartnerHandler, openPaymentStore, type PaymentStore } from '../../../../src/server/index'
import { KIT_BASICS } from './net'

const CHAIN = 8453
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const W_ALICE = `0x${'a1'.repeat(20)}`
const W_BOB = `0x${'b0'.repeat(20)}`
const W_NOBODY = `0x${'c3'.repeat(20)}`
const T_BOB = `0x${'1b'.repeat(32)}`
const T_NOBODY = `0x${'2c'.repeat(32)}`
const T_ALICE = `0x${'3a'.repeat(32)}`
const SENDERS: Record<string, string> = { [T_BOB]: W_BOB, [T_NOBODY]: W_NOBODY, [T_ALICE]: W_ALICE }

let rpc: Server
let rpcUrl = ''
let rpcCalls: string[] = []
let store: PaymentStore
const topic = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`

function receipt(hash: string) {
  const from = SENDERS[hash.toLowerCase()]
  if (!from) return null
  const common = { blockHash: `0x${'ee'.repeat(32)}`, blockNumber: '0x10', transactionHash: hash.toLowerCase(), transactionIndex: '0x0' }
  return {
    ...common,
    from,
    to: `0x${'77'.repeat(20)}`,
    contractAddress: null,
    cumulativeGasUsed: '0x5208',
    effectiveGasPrice: '0x1',
    gasUsed: '0x5208',
    logsBloom: `0x${'00'.repeat(256)}`,
    status: '0x1',
    type: '0x2',
    logs: [
      {
        ...common,
        address: `0x${'77'.repeat(20)}`,
        topics: [TRANSFER, topic(from), topic(`0x${'99'.repeat(20)}`)],
        data: `0x${'00'.repeat(31)}01`,
        logIndex: '0x0',
        removed: false,
      },
    ],
  }
}

beforeAll(async () => {
  store = await openPaymentStore()
  rpc = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      const calls = [JSON.parse(body)].flat() as Array<{ id: number; method: string; params: unknown[] }>
      const out = calls.map((call) => {
        rpcCalls.push(call.method)
        if (call.method === 'eth_chainId') return { jsonrpc: '2.0', id: call.id, result: `0x${CHAIN.toString(16)}` }
        if (call.method === 'eth_getTransactionReceipt') return { jsonrpc: '2.0', id: call.id, result: receipt(String(call.params[0])) }
        return { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'no' } }
      })
      res.setHeader('Content-Type', 'application/json')
      res.end(JSON.stringify(Array.isArray(JSON.parse(body)) ? out : out[0]))
    })
  })
  await new Promise<void>((resolve) => rpc.listen(0, '127.0.0.1', resolve))
  rpcUrl = `http://127.0.0.1:${(rpc.address() as AddressInfo).port}`
  await store.bindAddress('alice', W_ALICE)
  await store.bindAddress('bob', W_BOB)
}, 60_000)
afterAll(async () => {
  rpc?.close()
  await store?.close()
})

function kit() {
  const service: unknown[] = []
  const handle = createPartnerHandler({
    ...KIT_BASICS,
    store,
    chains: { [CHAIN]: { rpcUrl } },
    publicUrl: 'https://shop.example/partner',
    fetch: (async (_input: string | URL, init: RequestInit) => {
      const body = JSON.parse(String(init.body))
      service.push(body)
      return Response.json({ status: 'pending', txHashes: { origin: body.receipt.txHash } })
    }) as unknown as typeof fetch,
    log: () => {},
  })
  const sent = async (user: string, txHash: string, provider = 'relay', chainId = CHAIN) => {
    const res = await handle(
      new Request('http://localhost/partner/deposit/sent', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${user}`, Origin: 'https://shop.example' },
        body: JSON.stringify({ provider, txHash, chainId }),
      }),
    )
    return { status: res.status, headers: [...res.headers].sort(), body: await res.text() }
  }
  return { sent, service }
}

describe('/deposit/sent tells no user whose a transaction is', { timeout: 60_000 }, () => {
  it('Bob records his; Alice naming it, and naming one nobody recorded, gets byte-identical answers after the same reads', async () => {
    const { sent, service } = kit()
    expect((await sent('bob', T_BOB)).status).toBe(200)
    const asked = service.length
    rpcCalls = []
    const held = await sent('alice', T_BOB)
    const readsHeld = [...rpcCalls]
    rpcCalls = []
    const unheld = await sent('alice', T_NOBODY)
    const readsUnheld = [...rpcCalls]
    expect(held).toEqual(unheld)
    expect(held.status).toBe(403)
    expect(readsHeld).toEqual(readsUnheld)
    expect(service.length).toBe(asked)
  })

  it.each([
    ['in upper case', (h: string) => `0x${h.slice(2).toUpperCase()}`, 'relay'],
    ['under another provider', (h: string) => h, 'across'],
    ['under another provider, upper case', (h: string) => `0x${h.slice(2).toUpperCase()}`, 'Relay'],
  ])("Alice naming Bob's transaction %s: the same answer as for one nobody recorded", async (_, spell, provider) => {
    const { sent } = kit()
    await sent('bob', T_BOB)
    expect(await sent('alice', spell(T_BOB), provider)).toEqual(await sent('alice', spell(T_NOBODY), provider))
  })

  it("a user with no linked wallet at all: the same answer for Bob's transaction and for nobody's", async () => {
    const { sent } = kit()
    await sent('bob', T_BOB)
    expect(await sent('mallory', T_BOB)).toEqual(await sent('mallory', T_NOBODY))
  })

  it("on a chain the kit does not read: the same answer for Bob's transaction and for nobody's", async () => {
    const { sent } = kit()
    await sent('bob', T_BOB)
    expect(await sent('alice', T_BOB, 'relay', 1)).toEqual(await sent('alice', T_NOBODY, 'relay', 1))
  })

  it("Alice's own transaction still goes (the check is not a blanket refusal)", async () => {
    const { sent, service } = kit()
    const mine = await sent('alice', T_ALICE)
    expect(mine.status).toBe(200)
    expect(service.length).toBe(1)
  })
})
