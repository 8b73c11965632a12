// The package as a partner installs it: `npm pack` of dist/, unpacked into a temporary app's
// node_modules beside this repository's own dependencies (linked), with a tsconfig as a partner's
// (`moduleResolution: nodenext`, strict). Shared by the package tests.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const ROOT = resolve(import.meta.dirname, '../..')
const DIST = process.env.WIDGET_DIST ?? 'dist'

export type PackedApp = {
  /** The tarball npm pack wrote. */
  tarball: string
  /** The partner's app folder: stablecoin-widget installed from the tarball. */
  app: string
  /** tsc over these files of the app (`outDir` set: emitted as JavaScript there); its output, '' when clean. */
  compile: (files: string[], outDir?: string) => { output: string; status: number | null }
  remove: () => void
}

export function packApp(): PackedApp {
  const work = mkdtempSync(join(tmpdir(), 'widget-pack-'))
  // npm pack reads package.json's `files` (dist); a build elsewhere (WIDGET_DIST) is not packed.
  if (DIST !== 'dist') throw new Error('the package test packs dist/: build it with npm run build')
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop()!
  const tarball = join(work, name)
  const app = join(work, 'app')
  const pkg = join(app, 'node_modules', 'stablecoin-widget')
  mkdirSync(pkg, { recursive: true })
  execFileSync('tar', ['-xzf', tarball, '-C', pkg, '--strip-components=1'])
  // The package's own dependencies, the frameworks of the docs' examples and Node's types, from this repository's install.
  for (const dep of readdirSync(join(ROOT, 'node_modules')).filter((d) => !d.startsWith('.') && d !== 'stablecoin-widget')) {
    symlinkSync(join(ROOT, 'node_modules', dep), join(app, 'node_modules', dep))
  }
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'partner', type: 'module', private: true }))
  const compile = (files: string[], outDir?: string) => {
    const emit = outDir ? { noEmit: false, outDir, rootDir: app } : { noEmit: true }
    const config = `tsconfig.${Math.random().toString(36).slice(2)}.json`
    writeFileSync(
      join(app, config),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, types: ['node'], skipLibCheck: false, ...emit },
        files,
      }),
    )
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(app, config)], { encoding: 'utf8' })
    return { output: tsc.stdout + tsc.stderr, status: tsc.status }
  }
  return { tarball, app, compile, remove: () => rmSync(work, { recursive: true, force: true }) }
}
