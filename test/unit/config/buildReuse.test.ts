import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

// `build.mjs --reuse DIR` takes DIR's bundles and writes only the registry's pages: it must never
// put a sandbox build's bundles (sandbox wallet, badge) under a production registry, nor the reverse.
function buildReusing(kind: string | undefined, partners: string) {
  const root = mkdtempSync(join(tmpdir(), 'reuse-'))
  const from = join(root, 'from')
  mkdirSync(join(from, '.vite'), { recursive: true })
  if (kind !== undefined) writeFileSync(join(from, '.vite', 'kind'), kind)
  const out = join(root, 'out')
  const r = spawnSync(process.execPath, ['scripts/build.mjs', '--partners', partners, '--out', out, '--reuse', from], { encoding: 'utf8' })
  return { status: r.status, stderr: r.stderr, wrote: existsSync(out) }
}

describe('build --reuse', () => {
  it('refuses a sandbox build under a production registry, and writes nothing', () => {
    const r = buildReusing('sandbox', 'test/fixtures/partners.json')
    expect(r.status).toBe(1)
    expect(r.stderr).toContain('is a sandbox build, and this registry makes a production build')
    expect(r.wrote).toBe(false)
  })

  it('refuses a folder that no build of this script made', () => {
    const r = buildReusing(undefined, 'test/fixtures/partners.json')
    expect(r.status).toBe(1)
    expect(r.stderr).toContain('is a none build')
    expect(r.wrote).toBe(false)
  })

  it('refuses a production build under a sandbox registry', () => {
    const root = mkdtempSync(join(tmpdir(), 'reuse-registry-'))
    const file = join(root, 'partners.json')
    writeFileSync(file, JSON.stringify([sandboxEntry()]))
    const r = buildReusing('production', file)
    expect(r.status).toBe(1)
    expect(r.stderr).toContain('is a production build, and this registry makes a sandbox build')
  })
})

describe('build --reuse into its own folder', () => {
  it('is refused, and the folder stays', () => {
    const from = mkdtempSync(join(tmpdir(), 'reuse-self-'))
    mkdirSync(join(from, '.vite'), { recursive: true })
    writeFileSync(join(from, '.vite', 'kind'), 'production')
    const r = spawnSync(process.execPath, ['scripts/build.mjs', '--partners', 'test/fixtures/partners.json', '--out', `${from}/`, '--reuse', from], { encoding: 'utf8' })
    expect(r.status).toBe(1)
    expect(r.stderr).toContain('is the --out folder itself')
    expect(existsSync(join(from, '.vite', 'kind'))).toBe(true)
  })
})

function sandboxEntry() {
  const [entry] = JSON.parse(readFileSync('test/fixtures/partners.json', 'utf8'))
  return { ...entry, id: 'sandbox-shop', environment: 'sandbox' }
}
