// The package as a partner installs it: `npm pack` of the build, read by the tools partners'
// toolchains trust (@arethetypeswrong/cli, publint). The partner servers of the docs are compiled
// against the same tarball, and run, by servers.test.ts.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PackedApp, ROOT, packApp } from './packedApp'

const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name)

let packed: PackedApp
let tarball: string

beforeAll(() => {
  packed = packApp()
  tarball = packed.tarball
}, 60_000)

afterAll(() => packed?.remove())

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
})
