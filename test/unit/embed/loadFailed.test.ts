// @vitest-environment happy-dom
// A widget whose code did not load tells the partner with a stable code and a fixed message: never
// the thrown value's text, which could carry a URL with a token or a stack (issue 30).
import { describe, expect, it } from 'vitest'
import { createApi } from '../../../src/embed/api'
import { loadFailed } from '../../../src/errors/partnerErrors'

describe('a runtime that did not load', () => {
  it("sends load_failed with the fixed message, not the error's text", async () => {
    const api = createApi(
      () => Promise.reject(new TypeError('Failed to fetch https://cdn.example/assets/mount.js?token=secret')),
      () => new URL('https://cdn.example/embed.html'),
    )
    const heard: unknown[] = []
    api.mount(document.createElement('div'), { flow: 'deposit' }).on('error', (payload) => heard.push(payload))
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(heard).toEqual([{ code: 'load_failed', message: loadFailed.message }])
    expect(JSON.stringify(heard)).not.toContain('secret')
  })
})
