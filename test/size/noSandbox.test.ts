import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

// The production build (npm test builds dist/ from test/fixtures/partners.json, all production
// entries) holds no sandbox code: no sandbox wallet, no http-on-loopback card redirects.
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'lib' || name === 'server' ? [] : files(path)
    return /\.(js|html)$/.test(name) ? [path] : []
  })
}

describe('production build: no sandbox code in dist/', () => {
  const built = files('dist').map((path) => ({ path, text: readFileSync(path, 'utf8') }))

  it('is the production build of the test registry', () => {
    const index = built.find((f) => f.path === join('dist', 'index.html'))?.text ?? ''
    expect(index).toContain('"id":"acme-shop"')
    expect(index).toContain('"environment":"production"')
  })

  it.each([
    ['the sandbox wallet account (anvil dev account 9)', /0xa0Ee7A142d267C1f36714E4a8F75612F20a79720/i],
    ['the sandbox wallet provider', /is not connected to chain/],
    ['the sandbox wallet module', /sandboxWallet/],
  ])('%s is nowhere in dist/', (_name, marker) => {
    expect(built.filter((f) => marker.test(f.text)).map((f) => f.path)).toEqual([])
  })
})
