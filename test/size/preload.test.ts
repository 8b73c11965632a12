import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FLOW_ENTRIES, closure, readManifest } from './bundleSizes'
import { parseHeadersFile } from '../sandbox/static.mjs'

// The built output to check (npm test builds dist/; WIDGET_DIST checks another build).
const DIST = process.env.WIDGET_DIST ?? 'dist'

// The hosted page and the iframe page ask for everything the first screen needs at once (issue 19):
// one inline script reads the link's flow and adds a modulepreload per chunk of that flow. It runs
// under the strict CSP by its sha256 in script-src, never by 'unsafe-inline'.
const manifest = readManifest(DIST)
const pages = ['index.html', 'embed.html', ...readdirSync(join(DIST, 'p')).flatMap((id) => [`p/${id}/index.html`, `p/${id}/embed.html`])]
const inlineScripts = (html: string) => [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1])
const inlineStyles = (html: string) => [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1])
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
const directive = (csp: string | undefined, name: string) =>
  csp
    ?.split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `))
    ?.split(/\s+/)
const headers = parseHeadersFile(readFileSync(join(DIST, '_headers'), 'utf8')) as Array<{ path: string; headers: Array<[string, string]> }>
const cspOf = (path: string) =>
  headers
    .filter((r) => r.path === path)
    .flatMap((r) => r.headers)
    .find(([name]) => name === 'Content-Security-Policy')?.[1]
const FLOWS = FLOW_ENTRIES

/** What the page's inline script preloads for `?flow=…`, run as the browser would. */
function preloadsFor(html: string, search: string, language = 'en-US'): string[] {
  const added: string[] = []
  const document = {
    createElement: () => ({}) as { href?: string; rel?: string },
    head: { append: (l: { href: string; rel: string }) => added.push(`${l.rel} ${l.href}`) },
  }
  const preloads = inlineScripts(html).find((script) => script.includes('modulepreload')) as string
  new Function('location', 'document', 'navigator', preloads)({ search }, document, { language })
  return added
}
const catalogFile = (name: string) => `modulepreload /${manifest[`src/i18n/${name}.ts`].file}`

describe('the pages preload the flow the link names, under the strict CSP', () => {
  it.each(pages)(
    '%s has two inline scripts (the preloads, the first screen) and one stylesheet, each allowed by its sha256 in its Content-Security-Policy',
    (page) => {
      const html = readFileSync(join(DIST, page), 'utf8')
      const scripts = inlineScripts(html)
      const styles = inlineStyles(html)
      expect(scripts).toHaveLength(2)
      expect(styles).toHaveLength(1)
      const csp = cspOf(`/${page}`)
      for (const script of scripts) expect(directive(csp, 'script-src')).toContain(sha256(script))
      expect(directive(csp, 'style-src')).toContain(sha256(styles[0]))
      expect(csp).not.toContain('unsafe-inline')
    },
  )

  it('the frame page draws its first screen before it adds the preloads (each costs the main thread it shares with the partner page); the hosted page adds them in its head', () => {
    const order = (page: string) => {
      const html = readFileSync(join(DIST, page), 'utf8')
      const [drawing, preloading] = [inlineScripts(html).find((s) => s.includes('sw-first-')), inlineScripts(html).find((s) => s.includes('modulepreload'))]
      return { drawsAt: html.indexOf(drawing as string), preloadsAt: html.indexOf(preloading as string), headEnds: html.indexOf('</head>') }
    }
    const frame = order('embed.html')
    expect(frame.preloadsAt).toBeGreaterThan(frame.drawsAt)
    const hosted = order('index.html')
    expect(hosted.preloadsAt).toBeLessThan(hosted.headEnds)
    expect(hosted.drawsAt).toBeGreaterThan(hosted.headEnds)
  })

  it.each(Object.entries(FLOWS))('?flow=%s preloads every chunk of that flow the page does not load already', (flow, key) => {
    const onPage = closure(manifest, 'index.html')
    const expected = [...closure(manifest, key)].filter((k) => !onPage.has(k)).map((k) => `modulepreload /${manifest[k].file}`)
    expect(expected.length).toBeGreaterThan(0)
    for (const page of ['index.html', 'embed.html']) {
      const got = preloadsFor(readFileSync(join(DIST, page), 'utf8'), `?partner=acme-shop&flow=${flow}&amount=5`)
      expect(got).toEqual(expected)
      for (const line of got) expect(existsSync(join(DIST, line.split(' /')[1]))).toBe(true)
    }
  })

  it('no flow, an unknown flow, or a name of Object.prototype preloads nothing', () => {
    const html = readFileSync(join(DIST, 'index.html'), 'utf8')
    for (const search of ['?partner=acme-shop', '?flow=nope', '?flow=constructor', '?flow=__proto__', '']) expect(preloadsFor(html, search)).toEqual([])
  })

  it("the catalog of the link's locale, else the browser's, as the widget picks it (tag, then language; none for English)", () => {
    const html = readFileSync(join(DIST, 'index.html'), 'utf8')
    // The catalogs among the preloads (a flow's chunks are preloaded too, under names of any kind).
    const catalogFiles = new Set(['de', 'es', 'fr', 'pt-BR'].map(catalogFile))
    const catalogs = (search: string, language?: string) => preloadsFor(html, search, language).filter((l) => catalogFiles.has(l))
    expect(catalogs('?partner=acme-shop&locale=de')).toEqual([catalogFile('de')])
    expect(catalogs('?partner=acme-shop&locale=pt-PT')).toEqual([catalogFile('pt-BR')])
    expect(catalogs('?partner=acme-shop&locale=es-MX&flow=card')).toEqual([catalogFile('es')])
    expect(catalogs('?partner=acme-shop', 'fr-CA')).toEqual([catalogFile('fr')])
    expect(catalogs('?partner=acme-shop&locale=en-GB', 'de-DE')).toEqual([])
    expect(catalogs('?partner=acme-shop', 'en-US')).toEqual([])
    expect(catalogs('?partner=acme-shop&locale=xx')).toEqual([])
  })

  it('a production build preloads, draws and says nothing of the sandbox (its scripts, its first screens, its badge)', () => {
    for (const page of pages) expect(readFileSync(join(DIST, page), 'utf8')).not.toMatch(/sandbox/i)
  })
})
