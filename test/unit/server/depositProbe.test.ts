// @vitest-environment node
// POST /deposit/sent tells no user whose transaction is whose (issue 37, finding 7): a transaction
// another user recorded, and one from a wallet nobody or somebody else linked, get one answer,
// after the same checks, while the owner's own retry still gets its 200. Against a real anvil.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Address, Hash } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error: plain ESM module of the sandbox
import { DEV_ACCOUNTS } from '../../sandbox/deploy.mjs'
import { type PaymentStore, cryptoDepositId, openPaymentStore } from '../../../src/server/index'
import { SHOP, testKit, notLinked } from '../helpers/kit'
import { CHAIN, type UsdcChain, startUsdcChain } from './usdcChain'
import { linkWallet } from './walletKeys'

const PORT = 22400 + Math.floor(Math.random() * 90)
let anvil: { url: string; stop: () => Promise<void> }
let store: PaymentStore
let transfer: (from: Address) => Promise<Hash>
/** In front of anvil: the JSON-RPC methods the kit asked, in order. */
let rpc: { url: string; methods: string[]; server: Server }

beforeAll(async () => {
  let usdc: UsdcChain
  ;[usdc, store] = await Promise.all([startUsdcChain(PORT, [DEV_ACCOUNTS[6], DEV_ACCOUNTS[7]]), openPaymentStore()])
  anvil = usdc.anvil
  transfer = (from) => usdc.transfer(from, '5')
  const methods: string[] = []
  const server = createServer(async (req, res) => {
    let body = ''
    for await (const chunk of req) body += chunk
    const calls = [JSON.parse(body)].flat() as Array<{ method: string }>
    methods.push(...calls.map((call) => call.method))
    const answer = await fetch(anvil.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body })
    res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(await answer.text())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  rpc = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, methods, server }
}, 90_000)
afterAll(async () => {
  await new Promise((resolve) => rpc?.server.close(resolve))
  await anvil?.stop()
  await store?.close()
})

/** The store, recording which of its methods the handler called. */
function traced(target: PaymentStore, calls: string[]): PaymentStore {
  return new Proxy(target, {
    get(object, name, receiver) {
      const value = Reflect.get(object, name, receiver)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        calls.push(String(name))
        return value.apply(object, args)
      }
    },
  })
}

/** Everything stored: payments and bindings. */
const everything = async () => [
  ...(await store.db.query('SELECT kind, id, user_id FROM stablecoin_widget.payments ORDER BY kind, id')).rows,
  ...(await store.db.query('SELECT what, value, user_id FROM stablecoin_widget.bindings ORDER BY what, value')).rows,
]

describe('POST /deposit/sent: held and unheld transactions get one answer', () => {
  it("another user's recorded deposit, and transactions from a wallet nobody or another user linked: one status, code and message, after the same checks", async () => {
    const serviceCalls: string[] = []
    const storeCalls: string[] = []
    const { as } = testKit({
      publicUrl: SHOP,
      store: traced(store, storeCalls),
      chains: { [CHAIN]: { rpcUrl: rpc.url } },
      fetch: (async (url: string | URL | Request) => {
        serviceCalls.push(new URL(String(url)).pathname)
        return Response.json({ status: 'pending' })
      }) as typeof fetch,
    })
    const [alice, bob] = [as('alice-probe'), as('bob-probe')]
    expect(await linkWallet(bob, 6, CHAIN)).toMatchObject({ status: 200, body: { linked: true } })
    const bobsDeposit = await transfer(DEV_ACCOUNTS[6])
    const mine = { status: 200, body: { id: cryptoDepositId('router', bobsDeposit) } }
    expect(await bob('/deposit/sent', { provider: 'router', txHash: bobsDeposit, chainId: CHAIN })).toEqual(mine)
    // Not (yet) recorded: another from Bob's wallet, and one from a wallet nobody linked.
    const bobsUnrecorded = await transfer(DEV_ACCOUNTS[6])
    const nobodys = await transfer(DEV_ACCOUNTS[7])

    const stored = await everything()
    const seen = []
    for (const txHash of [bobsDeposit, bobsUnrecorded, nobodys]) {
      storeCalls.length = 0
      rpc.methods.length = 0
      const answer = await alice('/deposit/sent', { provider: 'router', txHash, chainId: CHAIN })
      seen.push({ answer, store: [...storeCalls], rpc: [...rpc.methods] })
    }
    // Alice cannot tell them apart: not the answer, nor which checks ran (the store's, the chain's).
    expect(seen[0]).toEqual(seen[1])
    expect(seen[1]).toEqual(seen[2])
    expect(seen[0].answer).toEqual(notLinked)
    // The refusals stored nothing, and asked the service nothing.
    expect(await everything()).toEqual(stored)
    expect(serviceCalls).toEqual(['/v1/deposit/status'])
    // Bob's own retry still gets his id.
    expect(await bob('/deposit/sent', { provider: 'router', txHash: bobsDeposit, chainId: CHAIN })).toEqual(mine)
  })
})
