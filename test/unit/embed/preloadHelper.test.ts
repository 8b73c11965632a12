// @vitest-environment happy-dom
// The build's helper around each dynamic import() (src/embed/preloadHelper.mjs, served by vite.config.ts in
// place of Vite's own): the chunk's static imports asked for beside it, once each, under the page's CSP
// nonce; then the import; a failed import announced as Vite's is.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'

let preload: typeof import('../../../src/embed/preloadHelper.mjs').__vitePreload

beforeAll(async () => {
  // Vite writes the flag's value into each chunk; the ES-module build sets it true.
  ;(globalThis as { __VITE_IS_MODERN__?: boolean }).__VITE_IS_MODERN__ = true
  preload = (await import('../../../src/embed/preloadHelper.mjs')).__vitePreload
})
afterEach(() => {
  document.head.innerHTML = ''
})

const IMPORTER = 'https://widget.test/assets/App-x.js'
const preloads = () =>
  [...document.head.querySelectorAll('link')].map((l) => ({
    rel: l.rel,
    as: l.getAttribute('as'),
    href: l.href,
    crossOrigin: l.crossOrigin,
    nonce: l.getAttribute('nonce'),
  }))

describe('the preload helper', () => {
  it('asks for each static import beside the chunk (modulepreload, as a script, CORS), relative to the importer, then runs the import and returns what it gives', async () => {
    const load = vi.fn(async () => ({ default: 'flow' }))
    const result = preload(load, ['./CardFlow-a.js', './amount-b.js'], IMPORTER)
    expect(preloads()).toEqual([
      { rel: 'modulepreload', as: 'script', href: 'https://widget.test/assets/CardFlow-a.js', crossOrigin: '', nonce: null },
      { rel: 'modulepreload', as: 'script', href: 'https://widget.test/assets/amount-b.js', crossOrigin: '', nonce: null },
    ])
    await expect(result).resolves.toEqual({ default: 'flow' })
    expect(load).toHaveBeenCalledOnce()
  })

  it('asks once for a chunk, and never for one the page links already (the hosted page preloads its flow)', async () => {
    const own = document.createElement('link')
    own.rel = 'modulepreload'
    own.href = 'https://widget.test/assets/page-c.js'
    document.head.append(own)
    await preload(async () => 1, ['./once-d.js'], IMPORTER)
    await preload(async () => 2, ['./once-d.js', './page-c.js', './new-e.js'], IMPORTER)
    expect(preloads().map((l) => l.href)).toEqual([
      'https://widget.test/assets/page-c.js',
      'https://widget.test/assets/once-d.js',
      'https://widget.test/assets/new-e.js',
    ])
  })

  it('puts the nonce of <meta property="csp-nonce"> on each link', async () => {
    const meta = document.createElement('meta')
    meta.setAttribute('property', 'csp-nonce')
    meta.setAttribute('nonce', 'r4nd0m')
    document.head.append(meta)
    await preload(async () => 1, ['./nonce-f.js'], IMPORTER)
    expect(preloads()).toEqual([expect.objectContaining({ href: 'https://widget.test/assets/nonce-f.js', nonce: 'r4nd0m' })])
  })

  it('without dependencies, only runs the import (and not before the current task ends)', async () => {
    let ran = false
    const result = preload(
      async () => {
        ran = true
        return 'done'
      },
      undefined,
      IMPORTER,
    )
    expect(ran).toBe(false)
    await expect(result).resolves.toBe('done')
    expect(preloads()).toEqual([])
  })

  it('a failed import dispatches a cancelable vite:preloadError with it, and rejects unless a listener prevented it', async () => {
    const failure = new Error('offline')
    const heard: unknown[] = []
    const listener = (e: Event) => heard.push((e as Event & { payload: unknown }).payload)
    window.addEventListener('vite:preloadError', listener)
    await expect(preload(() => Promise.reject(failure), [], IMPORTER)).rejects.toBe(failure)
    const prevent = (e: Event) => e.preventDefault()
    window.addEventListener('vite:preloadError', prevent)
    await expect(preload(() => Promise.reject(failure), [], IMPORTER)).resolves.toBeUndefined()
    window.removeEventListener('vite:preloadError', listener)
    window.removeEventListener('vite:preloadError', prevent)
    expect(heard).toEqual([failure, failure])
  })
})
