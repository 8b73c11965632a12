// A stored-record check whose first fetch failed (offline): what waited for it runs once it is
// here, and a deposit another tab sent is still adopted.
import { describe, expect, it, vi } from 'vitest'
import { flowKey } from '../../../src/storage/storedCheck'
import { memoryStorage } from '../helpers/memoryStorage'
import { depositConfig, trackingOf } from '../helpers/deposit'

const tick = () => new Promise((r) => setTimeout(r, 0))

describe('a failed fetch of a check does not lose what waited for it', () => {
  it('whenChecked: the read runs once the check is here, even if the first wait for it failed (offline)', async () => {
    vi.resetModules()
    const { lazyPart } = await import('../../../src/kernel/lazyPart')
    const { StoredCheckPending, whenChecked } = await import('../../../src/storage/storedCheck')
    let offline = true
    const part = lazyPart(async () => {
      if (offline) throw new Error('offline')
      return { ok: true }
    })
    const reads: string[] = []
    whenChecked(
      () => {
        if (!part.get()) throw new StoredCheckPending()
        reads.push('read')
      },
      part.load,
      part.arrived,
    )
    await tick()
    offline = false
    await part.load() // the idle preload (FirstScreen) or a later use fetches it
    await tick()
    expect(reads).toEqual(['read'])
  })

  it('deposit: a deposit another tab sent is adopted here even when the first fetch of its check failed', async () => {
    vi.resetModules()
    const { createDepositEffects } = await import('../../../src/flows/deposit/effects')
    const { depositChecks, depositStore } = await import('../../../src/flows/deposit/persisted')
    const storage = memoryStorage()
    const inner = depositStore(storage)
    let offline = true
    const store = { ...inner, ready: () => (offline ? Promise.reject(new Error('offline')) : depositChecks.load()) }
    const target = new EventTarget() as unknown as Window
    const events: Array<{ type: string }> = []
    const fx = createDepositEffects(
      {
        config: depositConfig,
        store,
        target,
        api: {} as never,
        partner: () => Promise.reject(new Error('unused')),
        clock: {} as never,
        loadChainActions: () => Promise.reject(new Error('unused')),
      },
      (event) => events.push(event),
    )
    fx.run({ tag: 'form', form: { amount: '25.5', source: 0 }, session: undefined } as never)
    // Tab A sends and keeps its tracking record; this tab hears the storage event while offline.
    const value = JSON.stringify(trackingOf(`0x${'b'.repeat(64)}`))
    storage.setItem(flowKey('deposit'), value)
    target.dispatchEvent(Object.assign(new Event('storage'), { key: inner.key, newValue: value }))
    await tick()
    // Back online: the check arrives (the idle preload), the buyer keeps using this tab.
    offline = false
    await depositChecks.load()
    fx.run({ tag: 'form', form: { amount: '25.6', source: 0 }, session: undefined } as never)
    await tick()
    expect(events.map((e) => e.type)).toContain('ADOPT')
    fx.dispose()
  })
})
