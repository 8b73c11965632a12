// The kernel's promise: no flow reaches into another. A flow's modules (src/flows/<flow>/) and its
// screens (src/screens/<flow>/) import the kernel, the api, the lib, never another flow's files;
// and the kernel, the api and the errors import no flow at all.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : []
  })

const imports = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)].map((m) => relative('src', resolve(file, '..', m[1])))

const flows = readdirSync('src/flows').filter((name) => statSync(join('src/flows', name)).isDirectory())
const flowOf = (path: string) => {
  const name = /^(?:flows|screens)\/([^/]+)\//.exec(path)?.[1]
  return name && flows.includes(name) ? name : undefined
}

describe('flow boundaries', () => {
  it('finds the flows', () => {
    expect(flows).toEqual(expect.arrayContaining(['deposit', 'card', 'onboarding']))
  })

  it.each(flows)('%s imports no other flow', (flow) => {
    const own = [...files(join('src/flows', flow)), ...(statSync('src/screens', { throwIfNoEntry: false }) && readdirSync('src/screens').includes(flow) ? files(join('src/screens', flow)) : [])]
    const foreign = own.flatMap((file) => imports(file).filter((target) => flowOf(target) && flowOf(target) !== flow).map((target) => `${file} → ${target}`))
    expect(foreign).toEqual([])
  })

  it('the kernel, the identity steps, the api and the errors import no flow', () => {
    const shared = ['src/kernel', 'src/identity', 'src/screens/identity', 'src/api', 'src/errors', 'src/lib', 'src/components'].flatMap(files)
    const into = shared.flatMap((file) => imports(file).filter((target) => flowOf(target)).map((target) => `${file} → ${target}`))
    expect(into).toEqual([])
  })
})

describe('storage boundaries (issue 28)', () => {
  // Every partner's hosted page shares the widget's origin: a flow keeps and reads its records only
  // through partnerStorage (its partner's part, on its service), never the browser's storage itself.
  // The rate limiter's slots are the one shared record (the service limits per IP).
  const code = (file: string) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
      .join('\n')
  const allowed = ['src/storage/safeStorage.ts', 'src/services.ts']

  it('only the storage module (and the rate limiter, in services.ts) reach localStorage or sessionStorage', () => {
    const reaching = files('src')
      .filter((file) => !file.startsWith('src/server/') && !allowed.includes(file))
      .filter((file) => /safe(?:Local|Session)Storage\s*\(|\b(?:local|session)Storage\s*[.[]/.test(code(file)))
    expect(reaching).toEqual([])
  })

  it("the tab's unscoped storage for the page's own signed link is read by pageLink alone", () => {
    // linkSessionStorage is unscoped (no partner is known before the link is checked): any other
    // user of it would be a way around partnerStorage.
    const users = files('src')
      .filter((file) => file !== 'src/storage/safeStorage.ts')
      .filter((file) => /\blinkSessionStorage\b/.test(code(file)))
    expect(users).toEqual(['src/config/pageLink.ts'])
  })
})
