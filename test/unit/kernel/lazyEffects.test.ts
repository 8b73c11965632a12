// A flow's effects fetched as it starts (kernel/lazyPart.ts lazyEffects): the latest state runs
// once the code is here, a failed fetch is tried again on the next state, nothing runs after dispose.
// As a page runs once its first screen is up: the stored-record checks and the answers' schemas are here.
import '../setup/afterFirstScreen'
import { describe, expect, it } from 'vitest'
import { lazyEffects, lazyObserver, lazyPart } from '../../../src/kernel/lazyPart'

function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}
const tick = () => new Promise((r) => setTimeout(r, 0))
type Module = ReturnType<typeof recorder>['module']
/** The effects whose code `load` fetches, created from it as a flow creates its own. */
const effectsOf = (load: () => Promise<Module>) => lazyEffects(lazyPart(load), (m) => m.create())

function recorder() {
  const ran: string[] = []
  let disposed = 0
  return { ran, disposed: () => disposed, module: { create: () => ({ run: (s: string) => void ran.push(s), dispose: () => void disposed++ }) } }
}

describe('lazyEffects', () => {
  it('runs only the latest state once the code arrives, then every state as it comes', async () => {
    const r = recorder()
    const code = deferred<typeof r.module>()
    const effects = effectsOf(() => code.promise)
    effects.run('form')
    effects.run('quoting')
    expect(r.ran).toEqual([])
    code.resolve(r.module)
    await tick()
    expect(r.ran).toEqual(['quoting'])
    effects.run('quote')
    expect(r.ran).toEqual(['quoting', 'quote'])
  })

  it('a fetch that failed is tried again on the next state', async () => {
    const r = recorder()
    let attempts = 0
    const effects = effectsOf(() => (++attempts === 1 ? Promise.reject(new TypeError('offline')) : Promise.resolve(r.module)))
    effects.run('form')
    await tick()
    expect(r.ran).toEqual([])
    effects.run('quoting')
    await tick()
    expect(attempts).toBe(2)
    expect(r.ran).toEqual(['quoting'])
  })

  it('disposed before the code arrives: nothing is created or run', async () => {
    const r = recorder()
    const code = deferred<typeof r.module>()
    const effects = effectsOf(() => code.promise)
    effects.run('tracking')
    effects.dispose()
    code.resolve(r.module)
    await tick()
    expect(r.ran).toEqual([])
    effects.run('result')
    expect(r.ran).toEqual([])
  })

  it('disposes the real runner once it exists', async () => {
    const r = recorder()
    const effects = effectsOf(() => Promise.resolve(r.module))
    effects.run('form')
    await tick()
    effects.dispose()
    expect(r.disposed()).toBe(1)
  })
})

describe('lazyObserver', () => {
  it('every change seen before the code arrives is told once it is here, in order; later ones at once', async () => {
    const told: string[] = []
    const code = deferred<{ tell: (prev: string, next: string) => void }>()
    const observe = lazyObserver(
      lazyPart(() => code.promise),
      (m) => m.tell,
    )
    observe('form', 'quoting')
    observe('quoting', 'quote')
    expect(told).toEqual([])
    code.resolve({ tell: (prev, next) => void told.push(`${prev}>${next}`) })
    await tick()
    expect(told).toEqual(['form>quoting', 'quoting>quote'])
    observe('quote', 'redirect')
    expect(told).toEqual(['form>quoting', 'quoting>quote', 'quote>redirect'])
  })

  it('a fetch that failed keeps what it holds, and the next change tries again', async () => {
    const told: string[] = []
    let attempts = 0
    const module = { tell: (prev: string, next: string) => void told.push(`${prev}>${next}`) }
    const observe = lazyObserver(
      lazyPart(() => (++attempts === 1 ? Promise.reject(new TypeError('offline')) : Promise.resolve(module))),
      (m) => m.tell,
    )
    observe('form', 'quoting')
    await tick()
    expect(told).toEqual([])
    observe('quoting', 'form')
    await tick()
    expect(attempts).toBe(2)
    expect(told).toEqual(['form>quoting', 'quoting>form'])
  })
})
