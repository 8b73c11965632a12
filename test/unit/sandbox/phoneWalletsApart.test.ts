// Two stacks in one process (e2e/globalSetup.ts starts one per worker) each have their own phone
// wallet on their own relay: core keeps one instance per storage prefix in a process, so a shared
// prefix would have the second phone wallet pair through the first stack's relay.
import { afterAll, expect, it } from 'vitest'
// @ts-expect-error: plain ESM module of the sandbox
import { startPhoneWallet } from '../../sandbox/walletconnect/phoneWallet.mjs'
// @ts-expect-error: plain ESM module of the sandbox
import { startRelay } from '../../sandbox/walletconnect/relay.mjs'

const closing: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const close of closing.reverse()) await close()
})

it('two phone wallets of one account, on two relays in one process, each keep their own core and relay', async () => {
  const phones = []
  for (let i = 0; i < 2; i++) {
    const relay = await startRelay({ port: 0 })
    closing.push(() => relay.close())
    const phone = await startPhoneWallet({ relayUrl: relay.url, chains: [{ id: 8453, rpcUrl: 'http://127.0.0.1:9' }] })
    closing.push(() => phone.close())
    phones.push({ phone, relay })
  }
  const [a, b] = phones
  expect(a.phone.client.core).not.toBe(b.phone.client.core)
  expect(a.phone.client.core.relayer.relayUrl).toBe(a.relay.url)
  expect(b.phone.client.core.relayer.relayUrl).toBe(b.relay.url)
})
