// @vitest-environment node
// The wallet link (src/server/walletLink.ts) as an attacker tries it: a counterfactual (ERC-6492)
// signature whose "factory" is any contract, a message that is no sign-in at all, and a user asking
// for challenges in a burst to pass the per-user cap.
import { encodeFunctionData, parseUnits, serializeErc6492Signature, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error: plain ESM module of the sandbox
import { DEV_ACCOUNTS } from '../../sandbox/deploy.mjs'
import { type PaymentStore, openPaymentStore } from '../../../src/server/index'
import { SHOP, testKit } from '../helpers/kit'
import { CHAIN, type UsdcChain, startUsdcChain } from './usdcChain'
import { devKey } from './walletKeys'

const PORT = 22200 + Math.floor(Math.random() * 90)
let anvil: { url: string; stop: () => Promise<void> }
let store: PaymentStore
let token: Address
let abi: unknown[]

beforeAll(async () => {
  let usdc: UsdcChain
  ;[usdc, store] = await Promise.all([startUsdcChain(PORT), openPaymentStore()])
  ;({ anvil, token, abi } = usdc)
}, 90_000)
afterAll(async () => {
  await anvil?.stop()
  await store?.close()
})

function as(who: string) {
  const kit = testKit({
    publicUrl: SHOP,
    authenticate: (t) => t.slice(4),
    store,
    chains: { [CHAIN]: { rpcUrl: anvil.url } },
    fetch: (async () => Response.json({ status: 'pending' })) as typeof fetch,
  })
  return kit.as(`tok-${who}`)
}

describe('attacks on the wallet link', () => {
  it("Alice wraps her own signature as ERC-6492 with a 'factory' that runs (a token's mint): Bob's address is not linked to her", async () => {
    const alice = as('alice')
    const bob = DEV_ACCOUNTS[5] as Address
    const { message } = (await alice('/deposit/wallet', { address: bob, chainId: CHAIN })).body
    const factoryData = encodeFunctionData({ abi, functionName: 'mint', args: [DEV_ACCOUNTS[1], parseUnits('1', 6)] })
    for (const inner of [await devKey(1).signMessage({ message }), '0x' as const]) {
      const signature = serializeErc6492Signature({ address: token, data: factoryData, signature: inner === '0x' ? `0x${'00'.repeat(65)}` : inner })
      const fresh = inner === '0x' ? (await alice('/deposit/wallet', { address: bob, chainId: CHAIN })).body.message : message
      expect(await alice('/deposit/wallet/link', { message: fresh, signature })).toMatchObject({ status: 422, body: { error: { code: 'wallet_unverified' } } })
    }
    expect(await store.addressHolder(bob)).toBeUndefined()
  })

  it('a message that is no sign-in at all is refused as unverified, never a 500', async () => {
    const alice = as('alice')
    for (const message of ['hello', 'Nonce: ', `x\nNonce: ${'a'.repeat(2000)}`]) {
      expect(await alice('/deposit/wallet/link', { message, signature: `0x${'11'.repeat(65)}` })).toMatchObject({
        status: 422,
        body: { error: { code: 'wallet_unverified' } },
      })
    }
  })

  it('a burst of 40 asks at once leaves at most 10 challenges for the user; 20 users hold at most 10 each', async () => {
    const count = async (user?: string) =>
      (
        await store.db.query<{ n: number }>(
          `SELECT count(*)::integer AS n FROM stablecoin_widget.wallet_challenges ${user ? 'WHERE user_id = $1' : ''}`,
          user ? [user] : [],
        )
      ).rows[0].n
    const mallory = as('mallory')
    await Promise.all(Array.from({ length: 40 }, () => mallory('/deposit/wallet', { address: DEV_ACCOUNTS[6], chainId: CHAIN })))
    expect(await count('mallory')).toBeLessThanOrEqual(10)
    const before = await count()
    for (let i = 0; i < 20; i++) {
      const user = as(`sybil${i}`)
      for (let j = 0; j < 12; j++) await user('/deposit/wallet', { address: DEV_ACCOUNTS[6], chainId: CHAIN })
    }
    expect((await count()) - before).toBeLessThanOrEqual(200)
  }, 60_000)
})
