import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createHash } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'

// `build.mjs --reuse DIR` takes DIR's bundles and writes only the registry's pages. It makes
// sandbox builds only (the end-to-end stacks'), takes only the files a build writes, and never
// deletes the folder it copies from.
const roots: string[] = []
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })))
const scratch = () => {
  const root = mkdtempSync(join(tmpdir(), 'reuse-'))
  roots.push(root)
  return root
}

function write(root: string, files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
}

// The build takes only first screens drawn for the page script it inlines (src/embed/firstPaint.mjs).
const PAINT = createHash('sha256').update(readFileSync('src/embed/firstPaint.mjs')).digest('hex')

/** A folder laid out as a sandbox build leaves it (what --reuse reads), plus `extra` files. */
function builtFolder(extra: Record<string, string> = {}) {
  const from = join(scratch(), 'from')
  const page = '<!doctype html><html><head></head><body></body></html>'
  write(from, {
    '.vite/manifest.json': JSON.stringify({
      'index.html': { file: 'assets/index-a.js', isEntry: true },
      'embed.html': { file: 'assets/embed-b.js', isEntry: true },
    }),
    '.vite/runtime.json': JSON.stringify({ 'src/embed/runtime.ts': { file: 'assets/runtime-c.js' } }),
    '.vite/pages/index.html': page,
    '.vite/pages/embed.html': page,
    '.vite/firstScreens.json': JSON.stringify({ paint: PAINT, css: '', data: { flows: [] }, screens: { 'index.html': {}, 'embed.html': {} }, wallets: '' }),
    'assets/index-a.js': 'export {}',
    'assets/embed-b.js': 'export {}',
    'assets/runtime-c.js': 'export {}',
    'stablecoin-widget.js': '',
    ...extra,
  })
  return from
}

function sandboxRegistry() {
  const [entry] = JSON.parse(readFileSync('test/fixtures/partners.json', 'utf8'))
  const file = join(scratch(), 'partners.json')
  // walletLink said, as the build asks of an entry with a backend that offers the deposit (else a warning).
  writeFileSync(file, JSON.stringify([{ ...entry, id: 'sandbox-shop', environment: 'sandbox', walletLink: false }]))
  return file
}

function build(partners: string, from: string, out = join(scratch(), 'out')) {
  const r = spawnSync(process.execPath, ['scripts/build.mjs', '--partners', partners, '--out', out, '--reuse', from], { encoding: 'utf8' })
  return { status: r.status, stderr: r.stderr, out }
}

/** The reuse refused, saying `words`, and nothing written. */
function expectRefused(r: { status: number | null; stderr: string; out: string }, words: string) {
  expect(r.status).toBe(1)
  expect(r.stderr).toContain(words)
  expect(existsSync(r.out)).toBe(false)
}

describe('build --reuse', () => {
  it('is refused for a production registry, whatever the folder holds, and writes nothing', () => {
    const r = build('test/fixtures/partners.json', builtFolder())
    expectRefused(r, '--reuse makes sandbox builds only')
  })

  it('refuses a folder that is not a sandbox build (a production build keeps no page templates)', () => {
    const from = builtFolder()
    rmSync(join(from, '.vite', 'pages'), { recursive: true })
    const r = build(sandboxRegistry(), from)
    expectRefused(r, 'is not a sandbox build (it has no .vite/pages)')
  })

  it.each([
    ['the same folder', (from: string) => `${from}/`],
    ['a folder inside it', (from: string) => join(from, 'assets')],
    ['a folder that holds it', (from: string) => dirname(from)],
  ])('refuses --out %s, and the folder stays', (_what, outOf) => {
    const from = builtFolder()
    const r = build(sandboxRegistry(), from, outOf(from))
    expect(r.status).toBe(1)
    expect(r.stderr).toContain('are the same folder, or one holds the other')
    expect(existsSync(join(from, 'assets', 'index-a.js'))).toBe(true)
  })

  it('refuses a manifest naming a path outside the folder, and writes nothing there', () => {
    const root = scratch()
    write(root, { 'outside.txt': 'secret' })
    const from = builtFolder({
      '.vite/manifest.json': JSON.stringify({ 'index.html': { file: 'assets/index-a.js', css: ['../../outside.txt'] } }),
    })
    const r = build(sandboxRegistry(), from, join(root, 'a', 'out'))
    expectRefused(r, '../../outside.txt is not a path inside the folder')
  })

  it.each([
    [
      'a link to a file outside',
      (from: string, outside: string) => symlinkSync(join(outside, 'secret.txt'), join(from, 'assets', 'leak.js')),
      'assets/leak.js',
    ],
    ['a file under a linked folder', (from: string, outside: string) => symlinkSync(outside, join(from, 'lnk')), 'lnk/secret.txt'],
    [
      'a page template that is a link',
      (from: string, outside: string) => (
        rmSync(join(from, '.vite/pages/embed.html')), symlinkSync(join(outside, 'secret.txt'), join(from, '.vite/pages/embed.html'))
      ),
      undefined,
    ],
  ])('refuses %s, and writes nothing', (_what, plant, named) => {
    const outside = scratch()
    write(outside, { 'secret.txt': 'secret' })
    const from = builtFolder(named ? { '.vite/manifest.json': JSON.stringify({ 'index.html': { file: 'assets/index-a.js', assets: [named] } }) } : {})
    plant(from, outside)
    const r = build(sandboxRegistry(), from)
    expectRefused(r, 'is not a plain file of the folder')
  })

  // From the second attacker's review: a folder from before a change of the page script drew nothing, silently.
  it('refuses first screens drawn for another page script, and writes nothing', () => {
    const from = builtFolder({
      '.vite/firstScreens.json': JSON.stringify({ paint: 'an older script', css: '', data: {}, screens: { 'index.html': {}, 'embed.html': {} }, wallets: '' }),
    })
    const r = build(sandboxRegistry(), from)
    expectRefused(r, 'drawn for another src/embed/firstPaint.mjs')
  })

  it('takes only what a build writes: files the folder holds besides are neither copied nor in sri.json', () => {
    const from = builtFolder({
      'assets/evil.js': 'alert(1)',
      'old/p/evil/index.html': '<script>',
      'lib/x.js': '',
      'p/other/index.html': '',
      'examples/partner.html': '{{MODE}}',
    })
    const r = build(sandboxRegistry(), from)
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    for (const stray of ['assets/evil.js', 'old', 'lib', 'p/other', 'examples']) expect(existsSync(join(r.out, stray)), stray).toBe(false)
    const sri = Object.keys(JSON.parse(readFileSync(join(r.out, 'sri.json'), 'utf8')))
    expect(sri.sort()).toEqual(
      [
        'assets/embed-b.js',
        'assets/index-a.js',
        'assets/runtime-c.js',
        'embed.html',
        'index.html',
        'p/sandbox-shop/embed.html',
        'p/sandbox-shop/index.html',
        'stablecoin-widget.js',
      ].sort(),
    )
    expect(readFileSync(join(r.out, 'index.html'), 'utf8')).toContain('"id":"sandbox-shop"')
  })
})
