// The README is a front door (issue 30): at most 200 lines, with a partner's complete server in
// under 40 (issue 29); the docs hold no commit hashes (figures come from npm run bench and the
// budget test, not from a day's notes).
import { readFileSync, readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const readme = readFileSync('README.md', 'utf8')
const docs = [
  'README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]

describe('the README and the docs', () => {
  it('the README is at most 200 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(200)
  })

  it("the README shows a partner's complete server in under 40 lines", () => {
    const block = /<!-- partner-server -->\s*```ts\n([\s\S]*?)```/.exec(readme)?.[1]
    expect(block).toBeTruthy()
    expect(block!.trimEnd().split('\n').length).toBeLessThan(40)
  })

  it.each(docs)('%s names no commit', (file) => {
    // A commit named as git prints it (7 to 40 hex digits with a letter and a digit), outside addresses and hashes of 64.
    const text = readFileSync(file, 'utf8').replace(/0x[0-9a-fA-F]+|[0-9a-f]{41,}|sha(256|384)-\S+/g, '')
    const commits = [...text.matchAll(/\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b/g)].map((m) => m[0])
    expect(commits).toEqual([])
  })
})
