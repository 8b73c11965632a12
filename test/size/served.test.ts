import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseHeadersFile } from '../sandbox/static.mjs'

// The production build (npm test builds dist/ from test/fixtures/partners.json) writes only what
// production serves, and `_headers` gives every page it writes its Content-Security-Policy. The
// npm package (lib, server) and the build's records (.vite) are not served.
const DIST = process.env.WIDGET_DIST ?? 'dist'
const NOT_SERVED = ['lib', 'server', '.vite']

const served = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (!statSync(path).isDirectory()) return [relative(DIST, path)]
    return dir === DIST && NOT_SERVED.includes(name) ? [] : served(path)
  })
const files = served(DIST)
const rules = parseHeadersFile(readFileSync(join(DIST, '_headers'), 'utf8')) as Array<{ path: string; headers: Array<[string, string]> }>
// As a static host matches them (and test/sandbox/static.mjs, which serves the e2e builds): exact, or a prefix ending in `*`.
const headersFor = (path: string) =>
  rules.filter((r) => (r.path.endsWith('*') ? path.startsWith(r.path.slice(0, -1)) : r.path === path)).flatMap((r) => r.headers)

describe('production build: what it writes is what production serves', () => {
  it('holds no example or sandbox page: no examples/ folder, no template placeholder', () => {
    expect(files.filter((f) => f.split('/')[0] === 'examples')).toEqual([])
    expect(files.filter((f) => /\.(html|js|css)$/.test(f) && /\{\{[A-Z_]+\}\}/.test(readFileSync(join(DIST, f), 'utf8')))).toEqual([])
  })

  it('every page it writes has a Content-Security-Policy in _headers', () => {
    const pages = files.filter((f) => f.endsWith('.html'))
    expect(pages).toContain('index.html')
    expect(pages).toContain('embed.html')
    const without = pages.filter((f) => !headersFor(`/${f}`).some(([name, value]) => name === 'Content-Security-Policy' && /default-src 'none'/.test(value)))
    expect(without).toEqual([])
  })
})
