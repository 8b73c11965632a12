// @vitest-environment node
// Proof of wallet control before a crypto deposit is credited (EIP-4361, Sign-In with Ethereum):
// a transaction's hash is public on the chain, so naming it proves nothing. The kit credits a
// deposit only to the user who linked its sender by signing the kit's own message with it.
import type { Address, Hash } from 'viem'
import { parseSiweMessage } from 'viem/siwe'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
// @ts-expect-error: plain ESM module of the sandbox
import { DEV_ACCOUNTS } from '../../sandbox/deploy.mjs'
import { type PaymentStore, createPartnerHandler, cryptoDepositId, openPaymentStore } from '../../../src/server/index'
import { CHAIN, type UsdcChain, startUsdcChain } from './usdcChain'
import { devKey, linkWallet } from './walletKeys'
import { notLinked } from '../helpers/kit'

const SHOP = 'https://shop.example'
/** This kit's public address, as the widget's partnerBase names it. */
const KIT = `${SHOP}/api/partner`
const WIDGET = 'https://widget.example'
const PORT = 21000 + Math.floor(Math.random() * 90)
let anvil: { url: string; stop: () => Promise<void> }
let store: PaymentStore
let transfer: (from: Address) => Promise<Hash>

beforeAll(async () => {
  let usdc: UsdcChain
  ;[usdc, store] = await Promise.all([startUsdcChain(PORT, [DEV_ACCOUNTS[5]]), openPaymentStore()])
  anvil = usdc.anvil
  // A deposit as the buyer's wallet sends it: a real ERC-20 transfer, public on the chain from then on.
  transfer = (from) => usdc.transfer(from, '25')
}, 90_000)
afterAll(async () => {
  await anvil?.stop()
  await store?.close()
})
afterEach(() => vi.useRealTimers())

function kit() {
  const asked: string[] = []
  // The service knows every deposit these tests send.
  const fetch = (async (_url: string | URL | Request, init?: RequestInit) => {
    const { receipt } = JSON.parse(String(init?.body)) as { receipt: { txHash: string } }
    asked.push(receipt.txHash)
    return Response.json({ status: 'pending', txHashes: { origin: receipt.txHash } })
  }) as typeof globalThis.fetch
  const handle = createPartnerHandler({
    apiBase: 'https://api.example',
    apiKey: 'sk_test_key',
    publicUrl: KIT,
    allowedOrigins: [SHOP, WIDGET],
    authenticate: (t) => ({ 'tok-alice': 'alice', 'tok-bob': 'bob', 'tok-carol': 'carol' })[t],
    store,
    chains: { [CHAIN]: { rpcUrl: anvil.url } },
    fetch,
    log: () => {},
  })
  const as =
    (who: string, origin: string | null = SHOP) =>
    async (path: string, body: unknown) => {
      const headers: Record<string, string> = { Authorization: `Bearer tok-${who}`, 'Content-Type': 'application/json' }
      if (origin) headers.Origin = origin
      const res = await handle(new Request(`${SHOP}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }))
      return { status: res.status, body: await res.json() }
    }
  return { asked, as, alice: as('alice'), bob: as('bob'), carol: as('carol') }
}

const unverified = (message: string) => ({ status: 422, body: { error: { code: 'wallet_unverified', message } } })
const notAChallenge = unverified('message: not a challenge this backend gave this user, or one already used')

describe('a deposit is credited only to the user who linked its sender', () => {
  it("Alice names Bob's deposit, seen on the chain before Bob's widget reports it: refused, and Bob's address stays free for Bob", async () => {
    const { asked, alice, bob } = kit()
    const bobs = await transfer(DEV_ACCOUNTS[5])
    expect(await alice('/deposit/sent', { provider: 'router', txHash: bobs, chainId: CHAIN })).toEqual(notLinked)
    expect(await store.ownerOf('deposit', cryptoDepositId('router', bobs))).toBeUndefined()
    expect(await store.addressHolder(DEV_ACCOUNTS[5])).toBeUndefined()
    // Refused before the service heard of it.
    expect(asked).toEqual([])
    // Bob, once he signed the kit's message with that wallet, gets his deposit, and the next one.
    expect(await linkWallet(bob, 5, CHAIN)).toEqual({ status: 200, body: { linked: true } })
    expect(await bob('/deposit/sent', { provider: 'router', txHash: bobs, chainId: CHAIN })).toEqual({
      status: 200,
      body: { id: cryptoDepositId('router', bobs) },
    })
    const next = await transfer(DEV_ACCOUNTS[5])
    expect(await bob('/deposit/sent', { provider: 'router', txHash: next, chainId: CHAIN })).toEqual({
      status: 200,
      body: { id: cryptoDepositId('router', next) },
    })
    // Alice, on Bob's next one: still refused, recorded or not, in one answer (depositProbe.test.ts).
    expect(await alice('/deposit/sent', { provider: 'router', txHash: await transfer(DEV_ACCOUNTS[5]), chainId: CHAIN })).toEqual(notLinked)
    expect(await alice('/deposit/sent', { provider: 'router', txHash: next, chainId: CHAIN })).toEqual(notLinked)
  })
})

describe('POST /deposit/wallet and /deposit/wallet/link', () => {
  it("answers a SIWE message of the kit's own for this page, address and chain; linked once signed", async () => {
    const { alice, carol, as } = kit()
    const address = DEV_ACCOUNTS[6] as Address
    const before = Date.now()
    const challenge = await alice('/deposit/wallet', { address: address.toLowerCase(), chainId: CHAIN })
    expect(challenge).toEqual({ status: 200, body: { linked: false, message: expect.any(String) } })
    const parsed = parseSiweMessage(challenge.body.message)
    // The page that asks (domain), and this kit by its publicUrl (URI): the widget signs only its own kit's.
    expect(parsed).toMatchObject({ scheme: 'https', domain: 'shop.example', uri: KIT, address, chainId: CHAIN, version: '1' })
    expect(parsed.statement).toMatch(/costs nothing and moves no money/)
    expect(parsed.resources).toBeUndefined()
    expect(parsed.nonce).toMatch(/^[a-zA-Z0-9]{16,}$/)
    expect(parsed.issuedAt!.getTime()).toBeGreaterThanOrEqual(before - 1_000)
    expect(parsed.expirationTime!.getTime() - parsed.issuedAt!.getTime()).toBe(10 * 60_000)
    // The page of the widget's own origin gets its own domain; the URI still names this kit.
    expect(parseSiweMessage((await as('alice', WIDGET)('/deposit/wallet', { address, chainId: CHAIN })).body.message)).toMatchObject({
      domain: 'widget.example',
      uri: KIT,
    })
    const signature = await devKey(6).signMessage({ message: challenge.body.message })
    expect(await alice('/deposit/wallet/link', { message: challenge.body.message, signature })).toEqual({ status: 200, body: { linked: true } })
    expect(await store.addressHolder(address)).toBe('alice')
    expect(await alice('/deposit/wallet', { address, chainId: CHAIN })).toEqual({ status: 200, body: { linked: true } })
    // Another user asking about it is given a challenge like any other: whose it is is not told.
    expect(await carol('/deposit/wallet', { address, chainId: CHAIN })).toMatchObject({ status: 200, body: { linked: false } })
    // A chain the kit does not read, a caller that is no page, a field out of form.
    expect(await alice('/deposit/wallet', { address, chainId: 8453 })).toEqual({
      status: 400,
      body: { error: { code: 'chain_not_configured', message: 'chainId: 8453 is not a chain this backend reads' } },
    })
    expect(await as('alice', null)('/deposit/wallet', { address, chainId: CHAIN })).toMatchObject({
      status: 403,
      body: { error: { code: 'origin_not_allowed' } },
    })
    expect(await alice('/deposit/wallet', { address: '0x1234', chainId: CHAIN })).toMatchObject({ status: 400, body: { error: { code: 'invalid_field' } } })
  })

  it('a message signed once links once: replayed, it is refused', async () => {
    const { carol } = kit()
    const challenge = await carol('/deposit/wallet', { address: DEV_ACCOUNTS[7], chainId: CHAIN })
    const link = { message: challenge.body.message, signature: await devKey(7).signMessage({ message: challenge.body.message }) }
    expect(await carol('/deposit/wallet/link', link)).toEqual({ status: 200, body: { linked: true } })
    expect(await carol('/deposit/wallet/link', link)).toEqual(notAChallenge)
    await store.db.query(`DELETE FROM stablecoin_widget.bindings WHERE value = $1`, [DEV_ACCOUNTS[7].toLowerCase()])
    // Even once the address is free again.
    expect(await carol('/deposit/wallet/link', link)).toEqual(notAChallenge)
    expect(await store.addressHolder(DEV_ACCOUNTS[7])).toBeUndefined()
  })

  it('the same signed message posted twice at once links once: exactly one of the two takes the challenge', async () => {
    const { alice } = kit()
    // Linked to alice by the test above: unlinked again, so that she is asked to sign.
    await store.db.query(`DELETE FROM stablecoin_widget.bindings WHERE value = $1`, [DEV_ACCOUNTS[6].toLowerCase()])
    const challenge = await alice('/deposit/wallet', { address: DEV_ACCOUNTS[6], chainId: CHAIN })
    const link = { message: challenge.body.message, signature: await devKey(6).signMessage({ message: challenge.body.message }) }
    const answers = await Promise.all([alice('/deposit/wallet/link', link), alice('/deposit/wallet/link', link)])
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422])
  })

  it("another user's challenge, signed by its wallet, links nothing for whoever posts it, and is spent", async () => {
    const { alice, carol } = kit()
    const challenge = await alice('/deposit/wallet', { address: DEV_ACCOUNTS[7], chainId: CHAIN })
    const link = { message: challenge.body.message, signature: await devKey(7).signMessage({ message: challenge.body.message }) }
    expect(await carol('/deposit/wallet/link', link)).toEqual(notAChallenge)
    expect(await alice('/deposit/wallet/link', link)).toEqual(notAChallenge)
    expect(await store.addressHolder(DEV_ACCOUNTS[7])).toBeUndefined()
  })

  it('a challenge older than 10 minutes is refused', async () => {
    const { alice } = kit()
    const challenge = await alice('/deposit/wallet', { address: DEV_ACCOUNTS[7], chainId: CHAIN })
    const link = { message: challenge.body.message, signature: await devKey(7).signMessage({ message: challenge.body.message }) }
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 10 * 60_000 + 1_000)
    expect(await alice('/deposit/wallet/link', link)).toEqual(unverified('message: this challenge has expired; ask for a new one'))
    expect(await store.addressHolder(DEV_ACCOUNTS[7])).toBeUndefined()
  })

  it('a signature by another key is refused, and the challenge is spent', async () => {
    const { alice } = kit()
    const { message } = (await alice('/deposit/wallet', { address: DEV_ACCOUNTS[7], chainId: CHAIN })).body
    expect(await alice('/deposit/wallet/link', { message, signature: await devKey(8).signMessage({ message }) })).toEqual(
      unverified('signature: not by the wallet the message names'),
    )
    expect(await alice('/deposit/wallet/link', { message, signature: await devKey(7).signMessage({ message }) })).toEqual(notAChallenge)
    expect(await store.addressHolder(DEV_ACCOUNTS[7])).toBeUndefined()
  })

  it('a message changed in any way (another address, domain, kit, chain, origin, or extra resources) is refused, even signed by the wallet it names', async () => {
    const { alice, as } = kit()
    const fresh = async () => (await alice('/deposit/wallet', { address: DEV_ACCOUNTS[7], chainId: CHAIN })).body.message as string
    const signedBy = async (index: number, message: string) => ({ message, signature: await devKey(index).signMessage({ message }) })
    const changed = unverified('message: not the message this backend gave')
    expect(await alice('/deposit/wallet/link', await signedBy(8, (await fresh()).replace(DEV_ACCOUNTS[7], DEV_ACCOUNTS[8])))).toEqual(changed)
    expect(await alice('/deposit/wallet/link', await signedBy(7, (await fresh()).replaceAll('shop.example', 'evil.example')))).toEqual(changed)
    expect(await alice('/deposit/wallet/link', await signedBy(7, (await fresh()).replace(`Chain ID: ${CHAIN}`, 'Chain ID: 1')))).toEqual(changed)
    expect(await alice('/deposit/wallet/link', await signedBy(7, `${await fresh()}\nResources:\n- https://evil.example/grant-all`))).toEqual(changed)
    expect(await alice('/deposit/wallet/link', await signedBy(7, (await fresh()).replace(`URI: ${KIT}`, 'URI: https://other-partner.example/api')))).toEqual(
      changed,
    )
    // The message given to the shop's page, posted from the widget's origin (another allowed page).
    expect(await as('alice', WIDGET)('/deposit/wallet/link', await signedBy(7, await fresh()))).toEqual(unverified('message: given to another page'))
    // A message of the right form that the kit never gave.
    const forged = (await fresh()).replace(/Nonce: \w+/, 'Nonce: abcdefgh12345678')
    expect(await alice('/deposit/wallet/link', await signedBy(7, forged))).toEqual(notAChallenge)
    expect(await store.addressHolder(DEV_ACCOUNTS[7])).toBeUndefined()
  })

  it('a wallet another user linked is not linked again (409), even by a signature of that wallet', async () => {
    const { alice, bob } = kit()
    expect(await linkWallet(bob, 8, CHAIN)).toEqual({ status: 200, body: { linked: true } })
    expect(await linkWallet(alice, 8, CHAIN)).toEqual({
      status: 409,
      body: { error: { code: 'wallet_not_owned', message: 'address: this wallet is linked to another user of this site' } },
    })
    expect(await store.addressHolder(DEV_ACCOUNTS[8])).toBe('bob')
  })
})
