// @vitest-environment node
// A crypto deposit paid by address (from another wallet or an exchange), through the kit, against a
// real anvil: the kit asks the service for the quote itself (POST /deposit/address) and records its
// deposit address to the user who asked, before the address is shown. A transfer into it, exactly
// as quoted, is then that user's, whoever sent it; never another user's, never one mined before.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Address, type Hash, encodeFunctionData, erc20Abi, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error: plain ESM module of the sandbox
import { DEV_ACCOUNTS } from '../../sandbox/deploy.mjs'
import { type PartnerHandlerOptions, type PaymentStore, createPartnerHandler, cryptoDepositId, openPaymentStore } from '../../../src/server/index'
import { CHAIN, type UsdcChain, startUsdcChain } from './usdcChain'
import { linkWallet } from './walletKeys'
import { notFound, notLinked } from '../helpers/kit'

const SHOP = 'https://shop.example'
const KIT = `${SHOP}/api/partner`
const PORT = Number(process.env.KIT_ANVIL_PORT_2) || 21000 + Math.floor(Math.random() * 90)
let usdc: UsdcChain
let store: PaymentStore
/** An exchange's hot wallet: an account no user of this site linked. */
const EXCHANGE = DEV_ACCOUNTS[5] as Address
const OPERATOR = DEV_ACCOUNTS[6] as Address
/** Where the partner has its deposits settle: its own treasury on Arbitrum (the kit's depositDestination). */
const TREASURY = { chainId: 42161, token: '0xaf88d065e77c8cc2239327c5edb3a432268e5831', address: '0x00000000000000000000000000000000000ca5e1' }

beforeAll(async () => {
  ;[usdc, store] = await Promise.all([startUsdcChain(PORT, [EXCHANGE, DEV_ACCOUNTS[1], DEV_ACCOUNTS[7]]), openPaymentStore()])
}, 90_000)
afterAll(async () => {
  await usdc?.anvil.stop()
  await store?.close()
})

const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address
const units = (amount: string) => parseUnits(amount, 6)
const transferData = (to: Address, amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] })
/** A plain ERC-20 transfer of `amount` USDC from `from` to `to`, mined. */
const pay = (from: Address, to: Address, amount: string, token: Address = usdc.token) => usdc.send(from, { to: token, data: transferData(to, units(amount)) })

type Quoted = { to: Address; amount?: string; approval?: boolean; call?: boolean; chainId?: number }

/** The service: each quote pays the next deposit address the test names; each status is pending. */
function service(next: () => Quoted) {
  const calls: Array<{ path: string; body: any }> = []
  const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    const path = new URL(String(url)).pathname
    const body = JSON.parse(String(init?.body))
    calls.push({ path, body })
    if (path === '/v1/deposit/quote') {
      const q = next()
      const amount = q.amount ?? body.amount
      return Response.json({
        provider: 'relay',
        amountIn: body.amount,
        amountOut: body.amount,
        fee: '0',
        expiresAt: new Date(Date.now() + 20 * 60_000).toISOString(),
        ...(q.approval ? { approval: { token: usdc.token, spender: q.to, amount: String(units(amount)) } } : {}),
        transaction: {
          chainId: q.chainId ?? CHAIN,
          to: q.call ? q.to : usdc.token,
          data: q.call ? `${transferData(q.to, units(amount))}00` : transferData(q.to, units(amount)),
          value: '0',
        },
      })
    }
    return Response.json({ status: 'pending', txHashes: { origin: body.receipt.txHash } })
  }) as typeof globalThis.fetch
  return { calls, fetch }
}

function kit(options: Partial<PartnerHandlerOptions> & { next?: () => Quoted } = {}) {
  let quoted: Quoted = { to: freshAddress() }
  const upstream = service(options.next ?? (() => quoted))
  const handle = createPartnerHandler({
    apiBase: 'https://api.example',
    apiKey: 'sk_test_key',
    publicUrl: KIT,
    allowedOrigins: [SHOP],
    authenticate: (t) => ({ 'tok-alice': 'alice', 'tok-bob': 'bob', 'tok-carol': 'carol', 'tok-dave': 'dave' })[t],
    store,
    chains: { [CHAIN]: { rpcUrl: usdc.anvil.url } },
    depositDestination: TREASURY,
    fetch: upstream.fetch,
    log: () => {},
    ...options,
  })
  const as = (who: string) => async (path: string, body: unknown) => {
    const res = await handle(
      new Request(`${SHOP}${path}`, {
        method: 'POST',
        headers: { Origin: SHOP, Authorization: `Bearer tok-${who}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }),
    )
    return { status: res.status, body: await res.json() }
  }
  const [alice, bob, carol, dave] = [as('alice'), as('bob'), as('carol'), as('dave')]
  /** The buyer asks for a deposit address for `amount` USDC; the service gives `to` (fresh unless said). */
  const ask = (user: typeof alice, amount = '12.5', q: Partial<Quoted> = {}) => {
    quoted = { to: freshAddress(), ...q }
    return user('/deposit/address', request(amount)).then((r) => ({ ...r, to: quoted.to }))
  }
  const sent = (user: typeof alice, txHash: Hash, provider = 'relay') => user('/deposit/sent', { provider, txHash, chainId: CHAIN })
  return { calls: upstream.calls, alice, bob, carol, dave, ask, sent }
}

const request = (amount: string, chainId = CHAIN) => ({
  source: { chainId, token: usdc.token, address: DEV_ACCOUNTS[8] },
  amount,
  method: 'crypto',
})

const notAsQuoted = (message: string) => ({ status: 422, body: { error: { code: 'deposit_not_as_quoted', message } } })

describe('POST /deposit/address: the deposit quote the kit asks for its user, and records', { timeout: 30_000 }, () => {
  it('forwards the quote request with the key, answers the quote as the service gave it, and records its deposit address to the user', async () => {
    const { calls, alice, ask } = kit()
    const quote = await ask(alice)
    expect(quote.status).toBe(200)
    expect(quote.body).toMatchObject({
      provider: 'relay',
      amountIn: '12.5',
      transaction: { chainId: CHAIN, to: usdc.token, data: transferData(quote.to, units('12.5')) },
    })
    // The destination is the partner's (depositDestination), filled in by the kit.
    expect(calls).toEqual([
      { path: '/v1/deposit/quote', body: { ...request('12.5'), source: { ...request('12.5').source, address: TREASURY.address }, destination: TREASURY } },
    ])
    expect(await store.depositAddressOf(CHAIN, quote.to)).toMatchObject({ userId: 'alice', token: usdc.token.toLowerCase(), units: '12500000' })
    // Its own retry (the service hands the same address again): still hers.
    expect((await alice('/deposit/address', request('12.5'))).status).toBe(200)
  })

  it("with no source.address (the buyer named no sender: an exchange's is unknown), forwards the destination's address as the sender, the partner's own, each user's", async () => {
    const { calls, alice, ask } = kit()
    const { source, ...rest } = request('12.5')
    const bare = { ...rest, source: { chainId: source.chainId, token: source.token } }
    const quote = await alice('/deposit/address', bare)
    expect(quote.status).toBe(200)
    // The service sends anything back to the sender: it reaches the partner, who makes the buyer whole.
    expect(calls).toEqual([{ path: '/v1/deposit/quote', body: { ...bare, source: { ...bare.source, address: TREASURY.address }, destination: TREASURY } }])
    // A sender the browser names is not forwarded: what the service sends back to the sender would
    // reach the buyer while the partner made them whole too. The partner's address is the sender.
    await ask(alice)
    expect(calls[1].body.source).toEqual({ ...source, address: TREASURY.address })
    // Each user's destination, where a function names it.
    const own = '0x00000000000000000000000000000000000a11ce'
    const perUser = kit({ depositDestination: () => ({ ...TREASURY, address: own }) })
    expect((await perUser.alice('/deposit/address', bare)).status).toBe(200)
    expect(perUser.calls.map((c) => c.body.source.address)).toEqual([own])
  })

  it("refuses a deposit address the service gives a second user (409 deposit_address_taken): it stays the first user's, and whose is not said", async () => {
    const { alice, bob, ask } = kit()
    const mine = await ask(alice)
    const again = await ask(bob, '12.5', { to: mine.to })
    expect({ status: again.status, body: again.body }).toEqual({
      status: 409,
      body: {
        error: {
          code: 'deposit_address_taken',
          message: 'The payment service gave a deposit address this backend already gave someone: ask again for another.',
        },
      },
    })
    expect((await store.depositAddressOf(CHAIN, mine.to))?.userId).toBe('alice')
  })

  it("refuses a deposit address that is the partner's own (where its deposits settle): any transfer to the partner would be credited to this user", async () => {
    const { alice, ask } = kit()
    const own = await ask(alice, '12.5', { to: TREASURY.address as Address })
    expect({ status: own.status, body: own.body }).toEqual({
      status: 502,
      body: {
        error: {
          code: 'deposit_address_refused',
          message: 'The payment service gave a deposit address this backend cannot give: ask again for another.',
        },
      },
    })
    expect(await store.depositAddressOf(CHAIN, TREASURY.address)).toBeUndefined()
  })

  it("refuses a deposit address that is a contract on its chain (the token, a router: every exact transfer into it would be this user's) or a wallet a user linked", async () => {
    const { alice, bob, ask } = kit()
    const refused = {
      error: { code: 'deposit_address_refused', message: 'The payment service gave a deposit address this backend cannot give: ask again for another.' },
    }
    // A router of the service's, say: code at the address on the source chain.
    const router = freshAddress()
    await fetch(usdc.anvil.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setCode', params: [router, '0x6000'] }),
    })
    const contract = await ask(alice, '12.5', { to: router })
    expect({ status: contract.status, body: contract.body }).toEqual({ status: 502, body: refused })
    const linked = freshAddress()
    await store.bindAddress('carol', linked.toLowerCase())
    const wallet = await ask(bob, '12.5', { to: linked })
    expect({ status: wallet.status, body: wallet.body }).toEqual({ status: 502, body: refused })
    expect(await store.depositAddressOf(CHAIN, linked)).toBeUndefined()
  })

  it('records nothing for a quote that is not one plain transfer (an approval, another call) or is on another chain, and answers it as it came', async () => {
    const { alice, ask } = kit()
    for (const q of [{ approval: true }, { call: true }, { chainId: 1 }]) {
      const quote = await ask(alice, '12.5', q)
      expect(quote.status).toBe(200)
      expect(await store.depositAddressOf(CHAIN, quote.to)).toBeUndefined()
    }
  })

  it('of two users given one address at once, exactly one holds it (the store, in one statement)', async () => {
    const address = freshAddress().toLowerCase()
    const record = (userId: string) =>
      store.recordDepositAddress({ chainId: CHAIN, address, userId, token: usdc.token.toLowerCase(), units: '1', fromBlock: '1' })
    const won = await Promise.all(['alice', 'bob', 'carol', 'alice'].map(record))
    const holder = (await store.depositAddressOf(CHAIN, address))?.userId
    expect(won.filter(Boolean).length).toBe(holder === 'alice' ? 2 : 1)
    expect(won.every((w, i) => w === (['alice', 'bob', 'carol', 'alice'][i] === holder))).toBe(true)
  })

  it('gives no deposit address to a user at their deposit limit (429, the service not asked): a transfer to it would not count as theirs', async () => {
    const { calls, dave, ask, sent } = kit({ userLimits: { deposit: { perDay: 1 } } })
    const first = await ask(dave, '1')
    expect((await sent(dave, await pay(EXCHANGE, first.to, '1'))).status).toBe(200)
    const asked = calls.length
    const second = await ask(dave, '1')
    expect(second).toEqual({
      status: 429,
      body: { error: { code: 'user_limit_reached', message: "This user's limit is reached: at most 1 per day." } },
      to: second.to,
    })
    expect(calls).toHaveLength(asked)
    expect(await store.depositAddressOf(CHAIN, second.to)).toBeUndefined()
  })

  it('forwards only the request as the contract spells it: an amount not a decimal string, a field more, a chain id not an integer are 400, the service not asked', async () => {
    const { calls, alice } = kit()
    const bodies = [
      { ...request('12.5'), amount: '1e3' },
      { ...request('12.5'), amount: '0x10' },
      { ...request('12.5'), amount: '-1' },
      { ...request('12.5'), amount: ' 12.5' },
      { ...request('12.5'), amount: 12.5 },
      { ...request('12.5'), method: 'card' },
      { ...request('12.5'), returnUrl: 'https://evil.example/' },
      { ...request('12.5'), source: { ...request('12.5').source, rpcUrl: 'https://evil.example/' } },
      { ...request('12.5'), source: { ...request('12.5').source, chainId: '31337' } },
      { ...request('12.5'), destination: { chainId: 1.5, token: usdc.token, address: DEV_ACCOUNTS[8] } },
    ]
    for (const body of bodies) expect((await alice('/deposit/address', body)).status).toBe(400)
    expect(calls).toEqual([])
  })

  it('an RPC that cannot be read is 502 chain_unreachable, and its URL (a key in its path) is not logged', async () => {
    const lines: string[] = []
    const { calls, alice } = kit({ chains: { [CHAIN]: { rpcUrl: 'http://127.0.0.1:9/v2/SECRET-RPC-KEY' } }, log: (line) => lines.push(line) })
    expect((await alice('/deposit/address', request('12.5'))).body).toMatchObject({ error: { code: 'chain_unreachable' } })
    expect(calls).toEqual([])
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.join('\n')).not.toContain('SECRET-RPC-KEY')
  })

  it('refuses a chain it does not read, before the service is asked', async () => {
    const { calls, alice } = kit()
    expect(await alice('/deposit/address', request('12.5', 8453))).toEqual({
      status: 400,
      body: { error: { code: 'chain_not_configured', message: 'source.chainId: 8453 is not a chain this backend reads' } },
    })
    expect(calls).toEqual([])
  })
})

describe("POST /deposit/address: the destination is the partner's (depositDestination), never the browser's", { timeout: 30_000 }, () => {
  const BUYER_WALLET = { chainId: 42161, token: TREASURY.token, address: DEV_ACCOUNTS[8] }
  const notAllowed = {
    status: 400,
    body: {
      error: {
        code: 'destination_not_allowed',
        message: 'destination: deposits through this backend settle where the partner set (depositDestination); leave it out, or name exactly that one',
      },
    },
  }

  it("refuses a request naming another destination (the buyer's own wallet: paid once, credited twice): 400, the service not asked, nothing recorded", async () => {
    let quotedTo = freshAddress()
    const { calls, alice } = kit({ next: () => ({ to: quotedTo }) })
    for (const destination of [BUYER_WALLET, { ...TREASURY, chainId: 8453 }, { ...TREASURY, token: usdc.token }, { ...TREASURY, address: DEV_ACCOUNTS[8] }]) {
      quotedTo = freshAddress()
      const answer = await alice('/deposit/address', { ...request('12.5'), destination })
      expect(answer, JSON.stringify(destination)).toEqual(notAllowed)
      expect(await store.depositAddressOf(CHAIN, quotedTo)).toBeUndefined()
    }
    expect(calls).toEqual([])
    // Its own destination, spelled in another case, is the same one: asked in the kit's spelling.
    const same = await alice('/deposit/address', {
      ...request('12.5'),
      destination: { ...TREASURY, address: TREASURY.address.toUpperCase().replace('0X', '0x') },
    })
    expect(same.status).toBe(200)
    expect(calls).toEqual([
      { path: '/v1/deposit/quote', body: { ...request('12.5'), source: { ...request('12.5').source, address: TREASURY.address }, destination: TREASURY } },
    ])
  })

  it("a function names each user's destination (asked per request); its answer is checked, and a bad one is a kit_error, logged, the service not asked", async () => {
    const lines: string[] = []
    const perUser = (user: string) =>
      user === 'alice'
        ? { ...TREASURY, address: '0x00000000000000000000000000000000000a11ce' }
        : user === 'bob'
          ? Promise.resolve({ ...TREASURY, address: '0x0000000000000000000000000000000000000b0b' })
          : user === 'carol'
            ? { chainId: 42161, token: TREASURY.token, address: 'not an address' }
            : undefined
    const { calls, alice, bob, carol, dave } = kit({
      depositDestination: perUser as never,
      log: (line) => lines.push(line),
      next: () => ({ to: freshAddress() }),
    })
    expect((await alice('/deposit/address', request('1'))).status).toBe(200)
    expect((await bob('/deposit/address', request('1'))).status).toBe(200)
    expect(calls.map((c) => c.body.destination.address)).toEqual(['0x00000000000000000000000000000000000a11ce', '0x0000000000000000000000000000000000000b0b'])
    // Alice naming Bob's destination is refused as any other.
    expect(await alice('/deposit/address', { ...request('1'), destination: { ...TREASURY, address: '0x0000000000000000000000000000000000000b0b' } })).toEqual(
      notAllowed,
    )
    expect((await carol('/deposit/address', request('1'))).body.error.code).toBe('kit_error')
    expect(lines.join('\n')).toMatch(/depositDestination/)
    // No destination for this user: no address for them.
    expect((await dave('/deposit/address', request('1'))).body.error.code).toBe('destination_not_configured')
    expect(calls).toHaveLength(2)
  })

  it('without depositDestination, gives no deposit address (it could not tell what it credits): 400 destination_not_configured, the service not asked', async () => {
    const { calls, alice } = kit({ depositDestination: undefined })
    const refusal = {
      status: 400,
      body: {
        error: {
          code: 'destination_not_configured',
          message: 'This backend sets no depositDestination: it gives no deposit address, since it could not tell where the deposit settles',
        },
      },
    }
    expect(await alice('/deposit/address', request('12.5'))).toEqual(refusal)
    expect(await alice('/deposit/address', { ...request('12.5'), destination: BUYER_WALLET })).toEqual(refusal)
    expect(calls).toEqual([])
  })
})

describe('POST /deposit/sent for a deposit paid by address', { timeout: 30_000 }, () => {
  it("credits a transfer into the user's own deposit address, exactly as quoted, from a sender nobody linked (an exchange); once", async () => {
    const { calls, alice, ask, sent } = kit()
    const { to } = await ask(alice)
    const txHash = await pay(EXCHANGE, to, '12.5')
    const first = await sent(alice, txHash)
    expect(first).toEqual({ status: 200, body: { id: cryptoDepositId('relay', txHash) } })
    // Told again (a reload, another tab): the same deposit; under another provider's spelling: not a second one.
    expect(await sent(alice, txHash)).toEqual(first)
    expect(await sent(alice, txHash, 'other')).toEqual(notFound)
    expect(calls.filter((c) => c.path === '/v1/deposit/status')).toHaveLength(1)
    expect(await store.ownerOf('deposit', first.body.id)).toBe('alice')
    expect((await store.listPayments('alice')).filter((p) => p.id.endsWith(txHash.toLowerCase()))).toHaveLength(1)
  })

  it('one transaction named at once under two providers is recorded once', async () => {
    const { alice, ask, sent } = kit()
    const { to } = await ask(alice)
    const txHash = await pay(EXCHANGE, to, '12.5')
    const answers = await Promise.all([sent(alice, txHash, 'relay'), sent(alice, txHash, 'other')])
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404])
    expect((await store.listPayments('alice')).filter((p) => p.id.endsWith(txHash.toLowerCase()))).toHaveLength(1)
  })

  it("never credits a transfer into another user's deposit address: not to a user naming it, not even one whose linked wallet sent it", async () => {
    const { calls, alice, bob, carol, ask, sent } = kit()
    const { to } = await ask(alice)
    // Bob links the wallet that pays (the buyer used a friend's wallet, or Bob paid for her).
    expect(await linkWallet(bob, 7, CHAIN)).toEqual({ status: 200, body: { linked: true } })
    const txHash = await pay(DEV_ACCOUNTS[7], to, '12.5')
    expect(await sent(bob, txHash)).toEqual(notFound)
    expect(await sent(carol, txHash)).toEqual(notLinked)
    expect(calls.filter((c) => c.path === '/v1/deposit/status')).toHaveLength(0)
    expect(await store.depositOf(txHash)).toBeUndefined()
    // Alice, whose address it is, is credited (first come is not first served).
    expect((await sent(alice, txHash)).status).toBe(200)
    expect(await sent(bob, txHash)).toEqual(notFound)
  })

  it('a transfer of another amount or another token into the address, or one mined before the address was given, is not as quoted (422)', async () => {
    const { calls, alice, ask, sent } = kit()
    // Paid into the address before this backend gave it to Alice (the service's addresses can come round again).
    const to = freshAddress()
    const earlier = await pay(EXCHANGE, to, '12.5')
    expect((await ask(alice, '12.5', { to })).status).toBe(200)
    expect(await sent(alice, earlier)).toEqual(notAsQuoted('txHash: it was mined before this backend gave the deposit address'))
    const less = await pay(EXCHANGE, to, '12.4')
    expect(await sent(alice, less)).toEqual(notAsQuoted('txHash: it pays the deposit address another amount or another token than quoted'))
    const other = (await ask(alice)).to
    const { token: otherToken } = await startOtherToken()
    const wrongToken = await pay(EXCHANGE, other, '12.5', otherToken)
    expect(await sent(alice, wrongToken)).toEqual(notAsQuoted('txHash: it pays the deposit address another amount or another token than quoted'))
    expect(calls.filter((c) => c.path === '/v1/deposit/status')).toHaveLength(0)
    for (const hash of [earlier, less, wrongToken]) expect(await store.depositOf(hash)).toBeUndefined()
  })

  it('the service giving the user the same address again for another amount: a transfer of either amount the user was shown counts', async () => {
    const { alice, ask, sent } = kit()
    const { to } = await ask(alice, '12.5')
    // Another tab, or another device, asks again; the service hands the same address for 20.
    expect((await ask(alice, '20', { to })).status).toBe(200)
    const first = await pay(EXCHANGE, to, '12.5')
    expect(await sent(alice, first)).toEqual({ status: 200, body: { id: cryptoDepositId('relay', first) } })
    const second = await pay(EXCHANGE, to, '20')
    expect(await sent(alice, second)).toEqual({ status: 200, body: { id: cryptoDepositId('relay', second) } })
  })

  it("credits a transfer whose token moves from another address than the transaction's sender (an exchange's batch withdrawal)", async () => {
    const { alice, ask, sent } = kit()
    const { to } = await ask(alice, '3')
    // The exchange's operator moves the exchange's tokens (approved to it): the Transfer is from the exchange, the transaction from the operator.
    await usdc.send(EXCHANGE, { to: usdc.token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [OPERATOR, units('3')] }) })
    const batch = await usdc.send(OPERATOR, {
      to: usdc.token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transferFrom', args: [EXCHANGE, to, units('3')] }),
    })
    expect(await sent(alice, batch)).toEqual({ status: 200, body: { id: cryptoDepositId('relay', batch) } })
  })

  it('a sender nobody linked, into no address this backend gave the user, is refused in its own words (403 wallet_not_linked)', async () => {
    const { calls, carol, sent } = kit()
    const txHash = await pay(EXCHANGE, freshAddress(), '12.5')
    expect(await sent(carol, txHash)).toEqual(notLinked)
    expect(calls).toEqual([])
  })

  it('counts against the per-user limit as any crypto deposit', async () => {
    const { carol, ask, sent } = kit({ userLimits: { deposit: { perDay: 1 } } })
    // Two addresses asked while under the limit (the limit counts deposits, not addresses): the second transfer is over it.
    const first = await ask(carol, '1')
    const second = await ask(carol, '1')
    expect(second.status).toBe(200)
    expect((await sent(carol, await pay(EXCHANGE, first.to, '1'))).status).toBe(200)
    expect((await sent(carol, await pay(EXCHANGE, second.to, '1'))).status).toBe(429)
  })

  it("stays the same across a restart: the address is still the user's, the deposit recorded once, and another user still refused", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kit-by-address-'))
    try {
      let onDisk = await openPaymentStore({ dataDir: dir })
      const before = kit({ store: onDisk })
      const { to } = await before.ask(before.alice)
      const txHash = await pay(EXCHANGE, to, '12.5')
      const first = await before.sent(before.alice, txHash)
      expect(first.status).toBe(200)
      await onDisk.close()
      onDisk = await openPaymentStore({ dataDir: dir })
      const after = kit({ store: onDisk })
      expect(await after.sent(after.alice, txHash)).toEqual(first)
      expect(await after.sent(after.bob, txHash)).toEqual(notLinked)
      expect((await after.ask(after.bob, '12.5', { to })).status).toBe(409)
      expect((await onDisk.listPayments('alice')).filter((p) => p.kind === 'deposit')).toHaveLength(1)
      await onDisk.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})

/** A second ERC-20 on the same chain (TestUSDC again), minted to the exchange. */
async function startOtherToken() {
  const { abi, bytecode } = (await import('../../sandbox/compile.mjs' as string)).compileContracts().TestUSDC
  const { createWalletClient, http, defineChain } = await import('viem')
  const chain = defineChain({
    id: CHAIN,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [usdc.anvil.url] } },
  })
  const wallet = createWalletClient({ chain, transport: http(), account: DEV_ACCOUNTS[0] as Address })
  const hash = await wallet.deployContract({ abi, bytecode })
  const token = (await usdc.pub.waitForTransactionReceipt({ hash })).contractAddress as Address
  await usdc.send(DEV_ACCOUNTS[0] as Address, { to: token, data: encodeFunctionData({ abi, functionName: 'mint', args: [EXCHANGE, units('1000')] }) })
  return { token }
}
