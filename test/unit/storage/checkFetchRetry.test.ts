// A stored-record check whose first fetch failed (offline): what waited for it runs once it is
// here, and a deposit another tab sent is still adopted.
import { describe, expect, it, vi } from 'vitest'
import { trackingOf } from '../helpers/deposit'
import { offlineTab, tick } from '../helpers/offlineTab'

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
    const tab = await offlineTab()
    // Tab A sends and keeps its tracking record; this tab hears the storage event while offline.
    await tab.write(JSON.stringify(trackingOf(`0x${'b'.repeat(64)}`)))
    // Back online: the check arrives (the idle preload), the buyer keeps using this tab.
    await tab.online()
    tab.fx.run({ tag: 'form', form: { amount: '25.6', source: 0 }, session: undefined } as never)
    await tick()
    expect(tab.events.map((e) => e.type)).toContain('ADOPT')
    tab.fx.dispose()
  })
})
