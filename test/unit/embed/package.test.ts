// @vitest-environment node
import { describe, expect, it } from 'vitest'

describe('the npm package entry', () => {
  it('imports without a DOM and touches nothing at import time (server rendering safe)', async () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined')
    const pkg = await import('../../../src/index')
    expect(Object.keys(pkg).sort()).toEqual(['defineElement', 'iframe', 'mount', 'setEmbedBase'])
    expect(typeof (globalThis as { customElements?: unknown }).customElements).toBe('undefined')
  })
})
