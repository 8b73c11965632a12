// @vitest-environment node
// Whose a transaction is by the deposit addresses the kit gave (src/server/depositAddress.ts): anyone
// may name any public transaction, and one can hold thousands of ERC-20 Transfers (an airdrop). The
// store is asked once for all of its recipients, not once per Transfer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PaymentStore, openPaymentStore } from '../../../src/server/index'
import { byDepositAddress } from '../../../src/server/depositAddress'
import type { TokenTransfer } from '../../../src/server/depositReceipt'

const CHAIN = 31337
const TOKEN = `0x${'a'.repeat(40)}`
const addressOf = (n: number) => `0x${n.toString(16).padStart(40, '0')}`
let store: PaymentStore

beforeAll(async () => {
  store = await openPaymentStore()
})
afterAll(() => store?.close())

/** The store, its calls counted. */
function counted(target: PaymentStore) {
  const calls: string[] = []
  const proxy = new Proxy(target, {
    get(t, name, receiver) {
      const value = Reflect.get(t, name, receiver)
      return typeof value === 'function' ? (...args: unknown[]) => (calls.push(String(name)), value.apply(t, args)) : value
    },
  })
  return { proxy, calls }
}

const read = (transfers: TokenTransfer[]) => ({
  ok: true as const,
  from: addressOf(1),
  blockNumber: 100n,
  paysOut: true,
  transfers,
  receipt: { txHash: `0x${'1'.repeat(64)}`, logs: [] },
})

describe('byDepositAddress: the store read once per transaction', () => {
  it('a transaction of 2000 Transfers to 2000 addresses, one of them the user’s as quoted, costs one read and is the user’s', async () => {
    const mine = addressOf(1_000_777)
    await store.recordDepositAddress({ chainId: CHAIN, address: mine, userId: 'alice', token: TOKEN, units: '5', fromBlock: '10' })
    const transfers = Array.from({ length: 2000 }, (_, i) => ({ token: TOKEN, from: addressOf(1), to: addressOf(2_000_000 + i), units: 5n }))
    transfers.push({ token: TOKEN, from: addressOf(1), to: mine, units: 5n })
    const { proxy, calls } = counted(store)
    expect(await byDepositAddress(proxy, 'alice', CHAIN, read(transfers))).toBe('mine')
    expect(calls).toEqual(['depositAddressesOf'])
  })

  it('another user’s address among them still makes it another’s; none of them recorded is none', async () => {
    const bobs = addressOf(3_000_001)
    const alices = addressOf(3_000_002)
    await store.recordDepositAddress({ chainId: CHAIN, address: bobs, userId: 'bob', token: TOKEN, units: '5', fromBlock: '10' })
    await store.recordDepositAddress({ chainId: CHAIN, address: alices, userId: 'alice', token: TOKEN, units: '5', fromBlock: '10' })
    const pays = (...to: string[]) => read(to.map((t) => ({ token: TOKEN, from: addressOf(1), to: t, units: 5n })))
    expect(await byDepositAddress(store, 'alice', CHAIN, pays(alices, bobs))).toBe('another')
    expect(await byDepositAddress(store, 'alice', CHAIN, pays(alices, alices))).toBe('mine')
    expect(await byDepositAddress(store, 'alice', CHAIN, pays(addressOf(9), addressOf(9)))).toBe('none')
    expect(await byDepositAddress(store, 'alice', CHAIN + 1, pays(alices))).toBe('none')
  })
})

describe('deposit addresses on a chain whose id is beyond 2^31', () => {
  it('are recorded and read (the chains option takes any chain id; Palm is 11297108109)', async () => {
    const palm = 11_297_108_109
    const address = addressOf(4_000_001)
    expect(await store.recordDepositAddress({ chainId: palm, address, userId: 'alice', token: TOKEN, units: '5', fromBlock: '10' })).toBe(true)
    expect(await store.depositAddressOf(palm, address)).toMatchObject({ chainId: palm, userId: 'alice', units: '5' })
  })
})

describe('the amounts quoted into one address', () => {
  it('are its holder’s every quote (the latest 20), never another user’s', async () => {
    const address = addressOf(5_000_001)
    const record = (userId: string, units: string) => store.recordDepositAddress({ chainId: CHAIN, address, userId, token: TOKEN, units, fromBlock: '10' })
    expect(await record('alice', '5')).toBe(true)
    expect(await record('bob', '7')).toBe(false)
    expect(await record('alice', '5')).toBe(true)
    expect((await store.depositAddressOf(CHAIN, address))?.quoted).toEqual([{ token: TOKEN, units: '5' }])
    for (let units = 100; units < 125; units++) await record('alice', String(units))
    const quoted = (await store.depositAddressOf(CHAIN, address))?.quoted.map((q) => q.units)
    expect(quoted).toEqual(Array.from({ length: 20 }, (_, i) => String(105 + i)))
  })
})
