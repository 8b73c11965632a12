// @vitest-environment node
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

describe('stablecoin-widget/server', () => {
  it('imports without a DOM and exports the kit', async () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined')
    const kit = await import('../../../src/server/index')
    expect(Object.keys(kit).sort()).toEqual(['createPartnerHandler', 'generateSigningKeys', 'partnerCorsHeaders', 'partnerRoutes', 'signWidgetUrl'])
    expect(kit.partnerRoutes.map((r) => `${r.method} ${r.path}`)).toContain('POST /card/purchase')
  })

  it('is a package entry with its types, which are checked without the DOM', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
    expect(pkg.exports['./server']).toEqual({ types: './dist/server/types/server/index.d.ts', import: './dist/server/index.js' })
    const tsconfig = JSON.parse(readFileSync('tsconfig.server.json', 'utf8'))
    expect(tsconfig.compilerOptions.outDir).toBe('dist/server/types')
    expect(tsconfig.compilerOptions.lib).toEqual(['ES2023']) // no DOM: the kit's types check without it
  })
})
