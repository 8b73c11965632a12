// The package as a partner installs it: `npm pack` of the build, read by the tools partners'
// toolchains trust (@arethetypeswrong/cli, publint), and docs/partner-kit.md's partner server compiled by
// tsc under `moduleResolution: nodenext` against the packed tarball, unpacked into node_modules.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')
const DIST = process.env.WIDGET_DIST ?? 'dist'
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name)

let work: string
let tarball: string

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'widget-pack-'))
  // npm pack reads package.json's `files` (dist); a build elsewhere (WIDGET_DIST) is not packed.
  if (DIST !== 'dist') throw new Error('the package test packs dist/: build it with npm run build')
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop()!
  tarball = join(work, name)
}, 60_000)

afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('the packed package', () => {
  it('resolves every entry point under node16 (ESM) and bundler, by @arethetypeswrong/cli', () => {
    // esm-only: the package is ESM ("type": "module", no require condition), so node10 and
    // node16-from-CJS are out of scope by design; every other resolution must be clean.
    const run = spawnSync(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'json'], { encoding: 'utf8' })
    const report = JSON.parse(run.stdout)
    type Problem = { kind: string; entrypoint?: string; resolutionKind?: string; resolutionOption?: string; fileName?: string; moduleSpecifier?: string }
    const outOfScope = new Set(['node10', 'node16-cjs'])
    const problems = (report.analysis?.problems as Problem[])
      .filter((p) => !outOfScope.has(p.resolutionKind ?? ''))
      .map((p) => [p.kind, p.entrypoint, p.resolutionKind, p.resolutionOption, p.fileName, p.moduleSpecifier].filter(Boolean).join(' '))
    expect(problems).toEqual([])
    expect(run.status).toBe(0)
  }, 60_000)

  it('has no publint error or warning', () => {
    const run = spawnSync(bin('publint'), [tarball, '--level', 'warning'], { encoding: 'utf8' })
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/warning|error/i)
    expect(run.status).toBe(0)
  }, 60_000)

  it("compiles the partner server of the README under moduleResolution nodenext", () => {
    const doc = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const block = /<!-- partner-server -->\s*```ts\n([\s\S]*?)```/.exec(doc)?.[1]
    expect(block, 'README.md: a ```ts block after <!-- partner-server -->').toBeTruthy()
    const app = join(work, 'app')
    const pkg = join(app, 'node_modules', 'stablecoin-widget')
    mkdirSync(pkg, { recursive: true })
    execFileSync('tar', ['-xzf', tarball, '-C', pkg, '--strip-components=1'])
    // The package's own dependencies and Node's types, from this repository's install.
    for (const dep of readdirSync(join(ROOT, 'node_modules')).filter((d) => !d.startsWith('.') && d !== 'stablecoin-widget')) {
      symlinkSync(join(ROOT, 'node_modules', dep), join(app, 'node_modules', dep))
    }
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'partner', type: 'module', private: true }))
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, types: ['node'], skipLibCheck: false },
        files: ['server.ts'],
      }),
    )
    writeFileSync(join(app, 'server.ts'), block!)
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', app], { encoding: 'utf8' })
    expect(tsc.stdout + tsc.stderr).toBe('')
    expect(tsc.status).toBe(0)
  }, 60_000)
})
