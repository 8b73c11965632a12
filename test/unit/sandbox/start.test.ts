// Issue 28, item 10: `npm start` speaks to a person: what runs where, then one signed link per flow
// that really starts that flow, and the example pages; the stack's JSON goes to a file.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { flows, parseOptions } from '../../../src/config/config'
import { resolveLink } from '../../../src/config/link'
import { verifySignedQuery } from '../../../src/config/signedLink'
// @ts-expect-error: plain ESM build script
import { parseRegistry } from '../../../scripts/registry.mjs'
// @ts-expect-error: plain ESM module of the sandbox
import { sandboxEntry } from '../../sandbox/demoUrl.mjs'
// @ts-expect-error: plain ESM module of the sandbox
import { generateSigningKeys } from '../../sandbox/sign.mjs'
// @ts-expect-error: plain ESM module of the sandbox
import { startSummary } from '../../sandbox/startSummary.mjs'
import { freePort } from './bankStack'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const WIDGET = 'http://127.0.0.1:5173'
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3'

/** A stack's config as startStack builds it (anvil's deterministic addresses), without starting one. */
function stackConfig() {
  const keys = generateSigningKeys()
  const apiBase = 'http://127.0.0.1:8787'
  const config = {
    apiBase,
    chains: [
      { id: 8453, name: 'Base (sandbox)', rpcUrl: 'http://127.0.0.1:8545' },
      { id: 42161, name: 'Arbitrum (sandbox)', rpcUrl: 'http://127.0.0.1:8546' },
    ],
    sources: [{ chainId: 8453, token: TOKEN, symbol: 'USDC', decimals: 6 }],
    destination: { chainId: 42161, token: TOKEN, symbol: 'USDC', decimals: 6 },
    depositor: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
    accounts: ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'],
    partnerBase: `${apiBase}/partner`,
    cardHosts: ['127.0.0.1:8787'],
    partner: 'sandbox',
    signingKey: keys.privateKey,
    identityUrl: `${apiBase}/identity`,
    payout: { chainId: 8453, token: TOKEN, symbol: 'USDC', decimals: 6 },
  }
  return { config, publicKey: keys.publicKey, registry: [sandboxEntry(config, keys.publicKey)] }
}

describe("npm start's summary", () => {
  const { config, publicKey, registry } = stackConfig()
  const text: string = startSummary({ config, widgetBase: WIDGET, stackFile: '.sandbox-state/stack.json' })

  it('gives one signed link per flow, each of which starts that flow', async () => {
    const links = text.match(new RegExp(`${WIDGET}/\\?\\S+`, 'g')) ?? []
    const started: string[] = []
    for (const link of links) {
      const search = new URL(link).search
      expect(await verifySignedQuery(search, publicKey), link).toEqual({ ok: true })
      const resolved = await resolveLink(search, registry)
      if (!resolved.ok) throw new Error(`${link}: ${resolved.detail}`)
      const parsed = parseOptions(resolved.options)
      if (!parsed.ok) throw new Error(`${link}: ${parsed.problem}`)
      if (parsed.config.flow) started.push(parsed.config.flow)
    }
    expect(started.sort()).toEqual([...flows].sort())
  })

  it("says that its partner's kit links wallets (it reads crypto deposits), in a registry the build takes", async () => {
    expect(parseRegistry(registry)[0]).toMatchObject({ partnerBase: config.partnerBase, walletLink: true })
    const resolved = await resolveLink(`?partner=${config.partner}&flow=deposit`, registry)
    const parsed = resolved.ok && parseOptions(resolved.options)
    expect(parsed && parsed.ok && parsed.config.walletLink).toBe(true)
  })

  it('says what runs where, and lists the example partner pages', () => {
    expect(text).toContain(`${WIDGET}/`)
    expect(text).toContain(config.apiBase)
    for (const chain of config.chains) expect(text).toContain(chain.rpcUrl)
    expect(text).toContain('.sandbox-state/stack.json')
    for (const mode of ['script', 'iframe', 'frame', 'element', 'markup', 'csp', 'hosted']) expect(text).toContain(`${config.apiBase}/examples/${mode}.html`)
  })

  it("links the partner's Payments page, where the kit's server-confirmed statuses show", () => {
    expect(text).toMatch(new RegExp(`Payments.*${config.apiBase}/examples/payments\\.html`))
  })

  it("names WalletConnect's local relay and the phone wallet when the stack runs them", () => {
    const walletConnect = { relayUrl: 'ws://127.0.0.1:8788', phoneWallet: 'http://127.0.0.1:8789', phoneAccount: '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f' }
    const withWc: string = startSummary({ config: { ...config, walletConnect }, widgetBase: WIDGET, stackFile: '.sandbox-state/stack.json' })
    expect(withWc).toMatch(/WalletConnect relay +ws:\/\/127\.0\.0\.1:8788/)
    expect(withWc).toMatch(/phone wallet +http:\/\/127\.0\.0\.1:8789\/state/)
    expect(withWc).not.toMatch(/[{}"]|0x[0-9a-fA-F]{40}/)
    expect(withWc.split('\n').length).toBeLessThanOrEqual(30)
    expect(text).not.toContain('WalletConnect')
  })

  it('dumps no JSON: no braces, no token or account addresses, no key', () => {
    expect(text).not.toMatch(/[{}"]/)
    expect(text).not.toMatch(/0x[0-9a-fA-F]{40}/)
    expect(text).not.toContain(config.signingKey.d)
    expect(text.split('\n').length).toBeLessThanOrEqual(30)
  })

  it('without the widget page, says where the stack is and offers no link to a page that is not served', () => {
    const bare: string = startSummary({ config, stackFile: '.sandbox-state/stack.json' })
    expect(bare).toContain(config.apiBase)
    expect(bare).not.toContain(WIDGET)
    expect(bare).not.toMatch(/[{}"]/)
  })
})

describe('the start script', () => {
  it('prints the summary, not the JSON, and writes the JSON to the file it names', async () => {
    const [source, dest, api] = [await freePort(), await freePort(), await freePort()]
    const child = spawn(process.execPath, ['test/sandbox/start.mjs'], {
      cwd: ROOT,
      env: { ...process.env, SOURCE_PORT: String(source), DEST_PORT: String(dest), API_PORT: String(api) },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.stderr.on('data', (chunk) => (out += chunk))
    const exited = new Promise((resolve) => child.once('exit', resolve))
    const file = `.sandbox-state/stack-${api}.json`
    try {
      // Ready once the summary's last line (the phone wallet's) is out, or the script gave up. Generous:
      // it also loads sign-client for the phone wallet, and CI runs two test files at once.
      const deadline = Date.now() + 30_000
      while (!out.includes('pair with a wc: URI') && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
      expect(out).toContain(`http://127.0.0.1:${api}`)
      expect(out).toContain(file)
      expect(out).not.toMatch(/[{}]/)
      expect(existsSync(`${ROOT}${file}`)).toBe(true)
      const written = JSON.parse(readFileSync(`${ROOT}${file}`, 'utf8'))
      expect(written.apiBase).toBe(`http://127.0.0.1:${api}`)
      expect(written.accounts.length).toBeGreaterThan(0)
      // WalletConnect's local relay and the phone wallet run beside it, on free ports when API_PORT is moved.
      expect(written.walletConnect.relayUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/)
      expect(await (await fetch(`${written.walletConnect.phoneWallet}/state`)).json()).toMatchObject({
        mode: 'hold',
        address: written.walletConnect.phoneAccount,
      })
      // The partner's private key stays out of the file as out of the printout.
      expect(written).not.toHaveProperty('signingKey')
    } finally {
      child.kill('SIGTERM')
      await exited
      rmSync(`${ROOT}${file}`, { force: true })
    }
  }, 50_000)
})
