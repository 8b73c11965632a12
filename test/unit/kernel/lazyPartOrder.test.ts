// kernel/lazyPart.ts lazyEffects / lazyObserver (effects and host events fetched after
// the first screen): nothing lost, duplicated, reordered, or run for a stale state.
// As a page runs once its first screen is up: the stored-record checks and the answers' schemas are here.
import '../setup/afterFirstScreen'
import { describe, expect, it } from 'vitest'
import { lazyEffects, lazyObserver, lazyPart } from '../../../src/kernel/lazyPart'

const tick = () => new Promise((r) => setTimeout(r, 0))

function gated<T>(value: T) {
  let fail = true
  let loads = 0
  const part = lazyPart(async () => {
    loads++
    if (fail) throw new Error('offline')
    return value
  })
  return { part, online: () => void (fail = false), loads: () => loads }
}

describe('lazyEffects', () => {
  it('runs only the latest state, once, after a failed fetch and a retry; one runner only', async () => {
    const g = gated({})
    const created: string[][] = []
    const fx = lazyEffects(g.part, () => {
      const runs: string[] = []
      created.push(runs)
      return { run: (s: string) => void runs.push(s), dispose: () => {} }
    })
    fx.run('form')
    fx.run('sending')
    await tick()
    expect(created).toEqual([])
    g.online()
    fx.run('sending')
    fx.run('sent')
    await tick()
    expect(created).toEqual([['sent']])
    fx.run('following')
    expect(created).toEqual([['sent', 'following']])
  })

  it('never runs after dispose, even if the module arrives later', async () => {
    const g = gated({})
    const runs: string[] = []
    const fx = lazyEffects(g.part, () => ({ run: (s: string) => void runs.push(s), dispose: () => {} }))
    fx.run('sending')
    fx.dispose()
    await tick()
    g.online()
    await g.part.load()
    await tick()
    expect(runs).toEqual([])
  })
})

describe('lazyObserver', () => {
  it('tells every change in order once the module is here, including those during the fetch, none twice', async () => {
    const g = gated({})
    const told: string[] = []
    const observe = lazyObserver(g.part, () => (prev: string, next: string) => void told.push(`${prev}>${next}`))
    observe('a', 'b')
    await tick()
    g.online()
    observe('b', 'c')
    const loading = g.part.load()
    observe('c', 'd')
    await loading
    observe('d', 'e')
    await tick()
    observe('e', 'f')
    expect(told).toEqual(['a>b', 'b>c', 'c>d', 'd>e', 'e>f'])
  })
})
