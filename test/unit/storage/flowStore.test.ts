import { describe, expect, it } from 'vitest'
import { createFlowStore } from '../../../src/storage/flowStore'
import { safeLocalStorage } from '../../../src/storage/safeStorage'
import { memoryStorage, throwingStorage } from '../helpers/memoryStorage'

const isPoint = (v: unknown) => (typeof v === 'object' && v !== null && typeof (v as { x?: unknown }).x === 'number' ? (v as { x: number }) : undefined)

describe('createFlowStore', () => {
  it('round-trips under a versioned, namespaced key and clears', () => {
    const storage = memoryStorage()
    const store = createFlowStore(storage, 'demo', isPoint)
    expect(store.load()).toBeUndefined()
    store.save({ x: 3 })
    expect([...storage.data.keys()]).toEqual(['stablecoin-widget:v1:flow:demo'])
    expect(store.load()).toEqual({ x: 3 })
    store.clear()
    expect(storage.data.size).toBe(0)
    expect(store.load()).toBeUndefined()
  })

  it('keeps flows apart', () => {
    const storage = memoryStorage()
    createFlowStore(storage, 'a', isPoint).save({ x: 1 })
    expect(createFlowStore(storage, 'b', isPoint).load()).toBeUndefined()
  })

  it('corrupted JSON or a value the validator refuses loads as undefined', () => {
    const storage = memoryStorage()
    const store = createFlowStore(storage, 'demo', isPoint)
    storage.setItem('stablecoin-widget:v1:flow:demo', '{"x":')
    expect(store.load()).toBeUndefined()
    storage.setItem('stablecoin-widget:v1:flow:demo', '{"y":1}')
    expect(store.load()).toBeUndefined()
  })

  it('does not crash when storage throws or is missing', () => {
    for (const storage of [throwingStorage(), undefined]) {
      const store = createFlowStore(storage, 'demo', isPoint)
      store.save({ x: 1 })
      expect(store.load()).toBeUndefined()
      store.clear()
    }
  })

  it('safeLocalStorage is undefined where there is no localStorage', () => {
    expect(safeLocalStorage()).toBeUndefined()
  })
})
