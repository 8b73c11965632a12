// A flow's effects fetched as it starts (kernel/lazyPart.ts lazyEffects): the latest state runs
// once the code is here, a failed fetch is tried again on the next state, nothing runs after dispose.
import { describe, expect, it } from 'vitest'
import { lazyEffects, lazyPart } from '../../../src/kernel/lazyPart'

function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}
const tick = () => new Promise((r) => setTimeout(r, 0))

function recorder() {
  const ran: string[] = []
  let disposed = 0
  return { ran, disposed: () => disposed, module: { create: () => ({ run: (s: string) => void ran.push(s), dispose: () => void disposed++ }) } }
}

describe('lazyEffects', () => {
  it('runs only the latest state once the code arrives, then every state as it comes', async () => {
    const r = recorder()
    const code = deferred<typeof r.module>()
    const effects = lazyEffects(lazyPart(() => code.promise), (m) => m.create())
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
    const effects = lazyEffects(
      lazyPart(() => (++attempts === 1 ? Promise.reject(new TypeError('offline')) : Promise.resolve(r.module))),
      (m) => m.create(),
    )
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
    const effects = lazyEffects(lazyPart(() => code.promise), (m) => m.create())
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
    const effects = lazyEffects(lazyPart(() => Promise.resolve(r.module)), (m) => m.create())
    effects.run('form')
    await tick()
    effects.dispose()
    expect(r.disposed()).toBe(1)
  })
})
