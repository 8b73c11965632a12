// As a page runs once its first screen is up: the stored-record checks and the answers' schemas are here.
import '../../setup/afterFirstScreen'
import { describe, expect, it } from 'vitest'
import type { Tracking } from '../../../../src/flows/deposit/machine'
import { depositStore } from '../../../../src/flows/deposit/persisted'
import { memoryStorage, throwingStorage } from '../../helpers/memoryStorage'
import { summaryOf } from '../../helpers/deposit'

const KEY = 'stablecoin-widget:v1:flow:deposit'
const tracking: Tracking = {
  provider: 'relay',
  chainId: 8453,
  txHash: `0x${'a'.repeat(64)}`,
  walletRdns: 'io.test.wallet',
  summary: summaryOf('25.5', '25.31', '0.19'),
  createdAt: 1_700_000_000_000,
  approvalHash: `0x${'e'.repeat(64)}`,
}

describe('depositStore', () => {
  it('saves and loads a tracking record', () => {
    const storage = memoryStorage()
    depositStore(storage).save(tracking)
    expect(storage.data.has(KEY)).toBe(true)
    expect(depositStore(storage).load()).toEqual(tracking)
  })

  it('loads a minimal record without the optional hashes', () => {
    const storage = memoryStorage()
    const { walletRdns: _w, approvalHash: _a, ...minimal } = tracking
    depositStore(storage).save(minimal)
    expect(depositStore(storage).load()).toEqual(minimal)
  })

  it('corrupted JSON loads as undefined', () => {
    const storage = memoryStorage()
    storage.setItem(KEY, '{"provider":"relay",')
    expect(depositStore(storage).load()).toBeUndefined()
  })

  it.each([
    ['a bad txHash', { ...tracking, txHash: '0x123' }],
    ['a missing summary', { ...tracking, summary: undefined }],
    ['a chainId as string', { ...tracking, chainId: '8453' }],
    ['a summary without amounts', { ...tracking, summary: { ...tracking.summary, amountOut: undefined } }],
    ['an array', [tracking]],
    ['null', null],
  ])('a record with %s loads as undefined', (_, value) => {
    const storage = memoryStorage()
    storage.setItem(KEY, JSON.stringify(value))
    expect(depositStore(storage).load()).toBeUndefined()
  })

  it('a record under another version key is not read', () => {
    const storage = memoryStorage()
    storage.setItem('stablecoin-widget:v0:flow:deposit', JSON.stringify(tracking))
    expect(depositStore(storage).load()).toBeUndefined()
  })

  it('storage that throws does not crash the flow', () => {
    const store = depositStore(throwingStorage())
    store.save(tracking)
    expect(store.load()).toBeUndefined()
    store.clear()
  })
})
