// @vitest-environment node
// The crypto deposit through the kit, against a real anvil: the kit reads the receipt from the
// chain itself, and the browser only names the transaction.
import { encodeFunctionData, parseUnits, type Address, type Hash } from 'viem'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
// @ts-expect-error: plain ESM module of the sandbox
import { compileContracts } from '../../sandbox/compile.mjs'
// @ts-expect-error: plain ESM module of the sandbox
import { DEV_ACCOUNTS } from '../../sandbox/deploy.mjs'
import { type PartnerHandlerOptions, type PaymentStore, cryptoDepositId, openPaymentStore } from '../../../src/server/index'
import { SHOP, testKit, notFound, notLinked } from '../helpers/kit'
import { CHAIN, type UsdcChain, startUsdcChain } from './usdcChain'
import { linkWallet } from './walletKeys'

/** This kit's public address, as the widget's partnerBase names it. */
const KIT = `${SHOP}/api/partner`
const PORT = Number(process.env.KIT_ANVIL_PORT) || 20900 + Math.floor(Math.random() * 90)
let anvil: { url: string; stop: () => Promise<void> }
let store: PaymentStore
let token: Address
let send: (from: Address, data: { to: Address; data?: `0x${string}`; value?: bigint; gas?: bigint }) => Promise<Hash>
let transfer: (from: Address, amount?: string) => Promise<Hash>
let chainReceipt: (hash: Hash) => Promise<{ logs: Array<{ address: string; topics: string[] }> }>

beforeAll(async () => {
  let usdc: UsdcChain
  ;[usdc, store] = await Promise.all([startUsdcChain(PORT, DEV_ACCOUNTS.slice(1, 5)), openPaymentStore()])
  ;({ anvil, token, send } = usdc)
  const pub = usdc.pub
  // A real ERC-20 transfer to a deposit address, as the buyer's wallet sends it.
  transfer = (from, amount = '25') => usdc.transfer(from, amount)
  chainReceipt = async (hash) => {
    const receipt = await pub.getTransactionReceipt({ hash })
    return { logs: receipt.logs.map((log) => ({ address: log.address, topics: [...log.topics] })) }
  }
}, 90_000)
afterAll(async () => {
  await anvil?.stop()
  await store?.close()
})

function kit(options: Partial<PartnerHandlerOptions> = {}) {
  const calls: Array<{ path: string; body: unknown }> = []
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ path: new URL(String(url)).pathname, body: JSON.parse(String(init?.body)) })
    return Response.json({ status: 'pending', txHashes: { origin: (JSON.parse(String(init?.body)) as { receipt: { txHash: string } }).receipt.txHash } })
  }) as unknown as typeof globalThis.fetch
  const { lines, as } = testKit({
    publicUrl: KIT,
    authenticate: (t) => ({ 'tok-alice': 'alice', 'tok-bob': 'bob', 'tok-carol': 'carol' })[t],
    store,
    chains: { [CHAIN]: { rpcUrl: anvil.url } },
    fetch,
    ...options,
  })
  const [alice, bob, carol] = [as('tok-alice'), as('tok-bob'), as('tok-carol')]
  /** The user links the dev account's wallet, by a signature of its key (walletLink.test.ts has the rules). */
  const linked = async (user: typeof alice, account: number) => expect(await linkWallet(user, account, CHAIN)).toEqual({ status: 200, body: { linked: true } })
  return { calls, lines, alice, bob, carol, linked }
}

describe('POST /deposit/sent and /deposit/status', () => {
  it('records the transaction read from the chain for its sender, and asks the service with that receipt, never one from the browser', async () => {
    const { calls, alice, bob, linked } = kit()
    await linked(alice, 1)
    const txHash = await transfer(DEV_ACCOUNTS[1])
    const sent = await alice('/deposit/sent', { provider: 'router', txHash, chainId: CHAIN })
    expect(sent).toEqual({ status: 200, body: { id: cryptoDepositId('router', txHash) } })
    // A replay is the same deposit; the same hash in capitals too.
    expect(await alice('/deposit/sent', { provider: 'router', txHash: txHash.toUpperCase().replace('0X', '0x'), chainId: CHAIN })).toEqual(sent)
    // A forged receipt is not a field at all.
    expect(await alice('/deposit/sent', { provider: 'router', txHash, chainId: CHAIN, receipt: { txHash, logs: [] } })).toEqual({
      status: 400,
      body: { error: { code: 'invalid_field', message: 'receipt: not a field of this request' } },
    })
    const status = await alice('/deposit/status', { id: sent.body.id })
    expect(status).toEqual({ status: 200, body: { status: 'pending', txHashes: { origin: txHash } } })
    // Once when the deposit was named (the service must know it before anything is recorded), once for its status.
    const asked = { path: '/v1/deposit/status', body: { provider: 'router', receipt: { txHash, ...(await chainReceipt(txHash)) } } }
    expect(calls).toEqual([asked, asked])
    expect(calls[0].body).toMatchObject({ receipt: { logs: [{ address: token.toLowerCase() }] } })
    // Bob, with the id, the hash, or the hash under another provider: nobody's to him, and the service
    // hears nothing. Naming the hash, he gets what a transaction nobody recorded gets (depositProbe.test.ts).
    expect(await bob('/deposit/status', { id: sent.body.id })).toEqual(notFound)
    expect(await bob('/deposit/sent', { provider: 'router', txHash, chainId: CHAIN })).toEqual(notLinked)
    expect(await bob('/deposit/sent', { provider: 'ROUTER', txHash, chainId: CHAIN })).toEqual(notLinked)
    // Alice herself under another provider: one transaction is followed (and credited) once.
    expect(await alice('/deposit/sent', { provider: 'other', txHash, chainId: CHAIN })).toEqual(notFound)
    expect(calls).toHaveLength(2)
    expect((await store.listPayments('alice')).filter((p) => p.kind === 'deposit')).toHaveLength(1)
  })

  it("a transaction from an address another user linked is not this user's (no claiming someone else's deposit off the chain)", async () => {
    const { bob, carol, linked } = kit()
    await linked(bob, 2)
    const first = await transfer(DEV_ACCOUNTS[2])
    expect((await bob('/deposit/sent', { provider: 'router', txHash: first, chainId: CHAIN })).status).toBe(200)
    const second = await transfer(DEV_ACCOUNTS[2])
    expect(await carol('/deposit/sent', { provider: 'router', txHash: second, chainId: CHAIN })).toEqual(notLinked)
    expect(await store.ownerOf('deposit', cryptoDepositId('router', second))).toBeUndefined()
  })

  it('a token transfer the service knows no deposit in records nothing, and one from a wallet the user did not link never reaches the service', async () => {
    // Bob's wallet paid someone on the chain: public, and an ERC-20 Transfer out of Bob's address.
    const notADeposit = await transfer(DEV_ACCOUNTS[4])
    const asked: string[] = []
    const fetch = (async (_url: string | URL | Request, init?: RequestInit) => {
      const { receipt } = JSON.parse(String(init?.body)) as { receipt: { txHash: string } }
      asked.push(receipt.txHash)
      return receipt.txHash === notADeposit
        ? Response.json({ error: { code: 'invalid_request', message: 'receipt: carries no deposit of a known quote' } }, { status: 400 })
        : Response.json({ status: 'pending', txHashes: { origin: receipt.txHash } })
    }) as typeof globalThis.fetch
    const { alice, bob, linked } = kit({ fetch })
    // Alice names it: not her wallet, so the service is not even asked.
    expect(await alice('/deposit/sent', { provider: 'router', txHash: notADeposit, chainId: CHAIN })).toEqual(notLinked)
    expect(asked).toEqual([])
    await linked(bob, 4)
    expect(await bob('/deposit/sent', { provider: 'router', txHash: notADeposit, chainId: CHAIN })).toEqual({
      status: 422,
      body: { error: { code: 'deposit_unverified', message: 'txHash: the payment service knows no deposit in this transaction' } },
    })
    expect(await store.ownerOf('deposit', cryptoDepositId('router', notADeposit))).toBeUndefined()
    // Bob's own deposit from that address, later, is Bob's.
    const deposit = await transfer(DEV_ACCOUNTS[4])
    expect(await bob('/deposit/sent', { provider: 'router', txHash: deposit, chainId: CHAIN })).toEqual({
      status: 200,
      body: { id: cryptoDepositId('router', deposit) },
    })
    expect(asked).toEqual([notADeposit, deposit])
  })

  it('refuses a chain it does not read, an RPC on another chain, and a transaction that is missing, failed, or moves no token out of its sender', async () => {
    const { calls, lines, carol, linked } = kit()
    await linked(carol, 3)
    const sent = (txHash: string, chainId = CHAIN) => carol('/deposit/sent', { provider: 'router', txHash, chainId })
    const unverified = (message: string) => ({ status: 422, body: { error: { code: 'deposit_unverified', message } } })
    const good = await transfer(DEV_ACCOUNTS[3])
    expect(await sent(good, 8453)).toEqual({
      status: 400,
      body: { error: { code: 'chain_not_configured', message: 'chainId: 8453 is not a chain this backend reads' } },
    })
    expect(await sent(`0x${'ab'.repeat(32)}`)).toEqual(unverified(`txHash: no such mined transaction on chain ${CHAIN}`))
    // Ether only, no token: no ERC-20 Transfer out of the sender.
    expect(await sent(await send(DEV_ACCOUNTS[3], { to: DEV_ACCOUNTS[9], value: 1n }))).toEqual(
      unverified('txHash: the transaction moves no token out of its sender'),
    )
    // A token transfer that reverted (more than the balance), mined with its gas given.
    const abi = compileContracts().TestUSDC.abi
    const reverted = await send(DEV_ACCOUNTS[3], {
      to: token,
      gas: 100_000n,
      data: encodeFunctionData({ abi, functionName: 'transfer', args: [DEV_ACCOUNTS[9], parseUnits('999999', 6)] }),
    })
    expect(await sent(reverted)).toEqual(unverified(`txHash: the transaction failed on chain ${CHAIN}`))
    // The partner pointed chain 1's RPC at this anvil: refused, and logged.
    const misconfigured = kit({ chains: { 1: { rpcUrl: anvil.url } } })
    expect(await misconfigured.carol('/deposit/sent', { provider: 'router', txHash: good, chainId: 1 })).toEqual({
      status: 502,
      body: { error: { code: 'chain_unreachable', message: 'The chain 1 could not be read.' } },
    })
    expect(misconfigured.lines).toEqual([`chain 1: the rpcUrl of chain 1 answers for chain ${CHAIN}`])
    expect(calls).toHaveLength(0)
    expect(lines).toEqual([])
    expect((await sent(good)).status).toBe(200)
  })

  it('counts crypto deposits against the per-user limit', async () => {
    const { carol } = kit({ userLimits: { deposit: { perDay: 2 } } })
    const already = (await store.listPayments('carol')).filter((p) => p.kind === 'deposit').length
    expect(already).toBe(1)
    expect((await carol('/deposit/sent', { provider: 'router', txHash: await transfer(DEV_ACCOUNTS[3]), chainId: CHAIN })).status).toBe(200)
    const over = await carol('/deposit/sent', { provider: 'router', txHash: await transfer(DEV_ACCOUNTS[3]), chainId: CHAIN })
    expect(over).toEqual({ status: 429, body: { error: { code: 'user_limit_reached', message: "This user's limit is reached: at most 2 per day." } } })
  })
})
