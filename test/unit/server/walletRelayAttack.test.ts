// @vitest-environment node
// A relay across partners on the widget's own origin (hosted page, frame): every partner's kit
// allows that origin, so without more each kit's message reads "widget.example wants you to sign
// in" alike. Partner A's backend (malicious or compromised) hands Bob's widget the message partner
// B's kit gave Alice for Bob's address; Bob signs it if the widget finds page, account and chain
// right; Alice posts it to kit B, which would link Bob's wallet to Alice. The message names the kit
// that wrote it (its publicUrl), and the widget signs only one naming its own partner backend.
import { type Address } from 'viem'
import { parseSiweMessage } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error: plain ESM module of the sandbox
import { startAnvil } from '../../sandbox/anvil.mjs'
import { type PaymentStore, openPaymentStore } from '../../../src/server/index'
import { postAs, testKit } from '../helpers/kit'
import { isKitMessage } from '../../../src/flows/deposit/linkWallet'
import { devKey } from './walletKeys'

const WIDGET = new URL('https://widget.example/pay')
const KIT_A = 'https://a.example/api'
const KIT_B = 'https://b.example/api'
const CHAIN = 31337
const PORT = 22300 + Math.floor(Math.random() * 90)
let anvil: { url: string; stop: () => Promise<void> }
let store: PaymentStore
beforeAll(async () => {
  ;[anvil, store] = await Promise.all([startAnvil({ chainId: CHAIN, port: PORT }), openPaymentStore()])
}, 60_000)
afterAll(async () => {
  await anvil?.stop()
  await store?.close()
})

/** A partner's kit at `publicUrl`, mounted at /api, on `store`; `as(user)` posts as that user from the widget's origin. */
function kitAt(publicUrl: string) {
  const { handle } = testKit({
    basePath: '/api',
    publicUrl,
    allowedOrigins: [new URL(publicUrl).origin, WIDGET.origin],
    store,
    chains: { [CHAIN]: { rpcUrl: anvil.url } },
  })
  const as = postAs(handle, publicUrl)
  return (user: string) => as(user, WIDGET.origin)
}

describe('a wallet-link message relayed from one partner to another', () => {
  it("a message partner B's kit gave Alice is not signed by Bob's widget for partner A, nor links Bob's wallet to Alice", async () => {
    const alice = kitAt(KIT_B)('alice')
    const bob = devKey(5)
    const { message } = (await alice('/deposit/wallet', { address: bob.address, chainId: CHAIN })).body
    // Bob's widget, hosted for partner A (partnerBase KIT_A), gets it from A's backend.
    const signs = isKitMessage(message, bob.address, CHAIN, WIDGET, KIT_A)
    if (signs) {
      const signature = await bob.signMessage({ message })
      await alice('/deposit/wallet/link', { message, signature })
    }
    expect(signs).toBe(false)
    expect(await store.addressHolder(bob.address as Address)).not.toBe('alice')
    // The message names kit B; a widget whose own backend is kit B would sign it.
    expect(parseSiweMessage(message).uri).toBe(KIT_B)
    expect(isKitMessage(message, bob.address, CHAIN, WIDGET, KIT_B)).toBe(true)
  })

  it('a kit refuses a message another kit (on the same store) gave, even signed by its wallet and posted by its user', async () => {
    const carol = devKey(6)
    const { message } = (await kitAt(KIT_B)('carol')('/deposit/wallet', { address: carol.address, chainId: CHAIN })).body
    const signature = await carol.signMessage({ message })
    expect(await kitAt(KIT_A)('carol')('/deposit/wallet/link', { message, signature })).toEqual({
      status: 422,
      body: { error: { code: 'wallet_unverified', message: 'message: written by another partner backend (not this publicUrl)' } },
    })
    expect(await store.addressHolder(carol.address as Address)).toBeUndefined()
  })
})
