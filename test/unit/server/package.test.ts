// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

describe('stablecoin-widget/server', () => {
  it('imports without a DOM and exports the kit', async () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined')
    const kit = await import('../../../src/server/index')
    expect(Object.keys(kit).sort()).toEqual([
      'StatusFetchError',
      'VirtualAccountsNotListed',
      'createKeyRate',
      'createNodeListener',
      'createPartnerHandler',
      'createPartnerReads',
      'createReconciler',
      'createStatusFetcher',
      'cryptoDepositId',
      'generateSigningKeys',
      'openPaymentStore',
      'partnerCorsHeaders',
      'partnerRoutes',
      'paymentKinds',
      'signWidgetUrl',
    ])
    expect(kit.partnerRoutes.map((r) => `${r.method} ${r.path}`)).toContain('POST /card/purchase')
  })

  it('is a package entry with its types, which are checked without the DOM', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
    expect(pkg.exports['./server']).toEqual({ types: './dist/server/types/server/index.d.ts', import: './dist/server/index.js' })
    const tsconfig = JSON.parse(readFileSync('tsconfig.server.json', 'utf8'))
    expect(tsconfig.compilerOptions.outDir).toBe('dist/server/types')
    expect(tsconfig.compilerOptions.lib).toEqual(['ES2023']) // no DOM: the kit's types check without it
  })

  it('loads PGlite only when the default store opens, and never pg (the partner brings its Pool)', () => {
    const files = readdirSync('src/server', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))
    const sources = files.map((f) => readFileSync(`src/server/${f}`, 'utf8')).join('\n')
    expect(sources).not.toMatch(/^import (?!type )[^\n]*from '@electric-sql\/pglite'/m)
    expect(sources).toContain("await import('@electric-sql/pglite')")
    expect(sources).not.toMatch(/from 'pg'|import\('pg'\)/)
    // Left out of the built kit's one file, so that it is the partner's install that provides it.
    expect(readFileSync('vite.server.config.ts', 'utf8')).toMatch(/external: \[[^\]]*'@electric-sql\/pglite'/)
  })
})
