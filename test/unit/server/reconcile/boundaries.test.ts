// @vitest-environment node
// One door to the tables (issue 38): the store's files hold every SQL statement; the reconciler
// orchestrates, asking the store by name.
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const RECONCILE = 'src/server/reconcile'
const code = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
    .join('\n')
const files = readdirSync(RECONCILE)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => join(RECONCILE, name))

describe('the reconciler and the store', () => {
  it('the reconciler writes no SQL: no query, no transaction, no table name', () => {
    const sql = files.filter((file) => /\.query\s*[<(]|\.transaction\s*\(|\bSCHEMA\b|\b(SELECT|UPDATE|INSERT|DELETE)\s/.test(code(file)))
    expect(sql).toEqual([])
  })

  it('the reconciler imports neither the migrations nor the engine', () => {
    const reaching = files.filter((file) => /from '\.\.\/store\/(migrations|sql|pglite)'/.test(code(file)))
    expect(reaching).toEqual([])
  })
})
