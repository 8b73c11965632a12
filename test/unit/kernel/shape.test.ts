// The shape of src/: no file over 250 lines but the language catalogs, and no function or
// component over 80 lines. A `createX` factory may be longer; each function inside it counts on its
// own. Read with the oxc parser Vite's rolldown ships (rolldown/utils), not by counting braces.
import { readFileSync } from 'node:fs'
import { parseSync } from 'rolldown/utils'
import { describe, expect, it } from 'vitest'
import { files } from '../helpers/imports'

const MAX_FILE = 250
const MAX_FUNCTION = 80
/** What may stay over, each named; an entry that is no longer over fails the last test. Empty. */
const ALLOWED = new Set<string>([])

type Node = { type: string; start: number; end: number; [key: string]: unknown }

function nameOf(node: Node, parent: Node | undefined): string {
  const id = node.id as { name?: string } | null | undefined
  if (id?.name) return id.name
  if (parent?.type === 'VariableDeclarator') return (parent.id as { name?: string }).name ?? '(anonymous)'
  if (parent?.type === 'Property' || parent?.type === 'MethodDefinition') return (parent.key as { name?: string }).name ?? '(anonymous)'
  return '(anonymous)'
}

/** Every function of a module that is over MAX_FUNCTION lines, as "file name (lines)". */
function longFunctions(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const lineAt = (offset: number) => text.slice(0, offset).split('\n').length
  const { program, errors } = parseSync(file, text)
  if (errors.length) throw new Error(`${file}: ${errors[0].message}`)
  const found: string[] = []
  const walk = (node: unknown, parent: Node | undefined) => {
    if (Array.isArray(node)) return node.forEach((child) => walk(child, parent))
    if (!node || typeof node !== 'object' || typeof (node as Node).type !== 'string') return
    const n = node as Node
    if (/^(FunctionDeclaration|FunctionExpression|ArrowFunctionExpression)$/.test(n.type)) {
      const name = nameOf(n, parent)
      const lines = lineAt(n.end) - lineAt(n.start) + 1
      if (lines > MAX_FUNCTION && !/^create[A-Z]/.test(name)) found.push(`${file} ${name} (${lines})`)
    }
    for (const [key, value] of Object.entries(n)) if (key !== 'type' && value && typeof value === 'object') walk(value, n)
  }
  walk(program, undefined)
  return found
}

const sources = files('src').filter((file) => /\.tsx?$/.test(file) && !/\.d\.ts$/.test(file))
const offenders = [
  ...sources
    .filter((file) => !file.startsWith('src/i18n/'))
    .flatMap((file) => {
      const lines = readFileSync(file, 'utf8').split('\n').length
      return lines > MAX_FILE ? [`${file} (${lines})`] : []
    }),
  ...sources.flatMap(longFunctions),
]
const key = (offender: string) => offender.replace(/ \(\d+\)$/, '')

describe('the shape of src/', () => {
  it(`no file over ${MAX_FILE} lines but the catalogs, no function over ${MAX_FUNCTION} (factories aside)`, () => {
    expect(offenders.filter((o) => !ALLOWED.has(key(o)))).toEqual([])
  })

  it('the allow-list only names what is still over', () => {
    const over = new Set(offenders.map(key))
    expect([...ALLOWED].filter((entry) => !over.has(entry))).toEqual([])
  })
})
