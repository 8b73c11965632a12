// The one reader of the browser code's imports, for the tests that hold its boundaries
// (kernel/boundaries.test.ts, flows/payout/pureMachine.test.ts, kernel/shape.test.ts): every import,
// a value, a type or a dynamic import(), resolved to its module (src-relative, without extension).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

/** The .ts and .tsx files under a folder. */
export const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : []
  })

export const moduleOf = (file: string) => relative('src', file).replace(/\.tsx?$/, '')

export const resolveSpec = (file: string, spec: string): string | undefined => {
  const base = resolve(file, '..', spec)
  const found = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => existsSync(candidate))
  return found && moduleOf(found)
}

/** One import: `to` is the module (a package's name as written, `external`); `type` where only types come. */
export type Edge = { from: string; to: string; type: boolean; dynamic: boolean; external: boolean }

/** Every import of a file, relative ones resolved to their module and packages by their name. */
export function importsOf(file: string, source = readFileSync(file, 'utf8')): Edge[] {
  const from = moduleOf(file)
  const edges: Edge[] = []
  const add = (spec: string, type: boolean, dynamic: boolean) => {
    const external = !spec.startsWith('.')
    const to = external ? spec : resolveSpec(file, spec)
    if (to) edges.push({ from, to, type, dynamic, external })
  }
  // import … from / export … from (a list of type-only names is a type import too)
  for (const m of source.matchAll(/\b(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*'([^']+)'/gs)) {
    const names = /\{([^}]*)\}/
      .exec(m[3])?.[1]
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean)
    const allTypes = !!names && names.length > 0 && names.every((n) => n.startsWith('type ')) && !/^\s*\w+\s*,/.test(m[3])
    add(m[4], !!m[2] || allTypes, false)
  }
  for (const m of source.matchAll(/^\s*import\s*'([^']+)'/gm)) add(m[1], false, false)
  // import('…'): a type where read as one (typeof import('…'), import('…').Name), else a lazy load
  for (const m of source.matchAll(/(typeof\s+)?\bimport\(\s*'([^']+)'\s*\)(\.\w)?/g)) add(m[2], !!(m[1] || m[3]), !(m[1] || m[3]))
  return edges
}

/** The imports of a file within src/ (relative ones, each resolved to a module that exists). */
export const edgesOf = (file: string, source?: string): Edge[] => importsOf(file, source).filter((e) => !e.external)
