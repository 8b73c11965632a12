import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FLOW_ENTRIES, closure, gzipSize, measure, readManifest } from './bundleSizes'
import { gzipSync } from 'node:zlib'

// The built output to check (npm test builds dist/; WIDGET_DIST checks another build).
const DIST = process.env.WIDGET_DIST ?? 'dist'

// Bytes of the built bundle, gzip level 9: deterministic for a given build, so a budget test.
const KB = 1024
const BUDGET = {
  // A stub that queues calls until the runtime arrives (issue 19).
  loader: 1 * KB,
  // Measured 2026-11-25: 22 826 bytes (the stylesheet left it: the hosted and iframe pages carry it
  // in their HTML, where their first screen is drawn; the runtime's mount entry adopts it).
  initial: 22.5 * KB,
  // Issue 19's budgets: card and bank before the first interaction at most 30 KB, the deposit with
  // its wallet code at most 65 KB. Measured 2026-11-25: card 28 840 bytes, bank (onboarding)
  // 30 637, deposit with wallet 61 330.
  // Measured 2026-11-28: card 29 819 bytes (31 010 before what every first load shares was cut:
  // docs/performance.md, "First loads back under their budgets"), under issue 39's 30 000 too.
  card: 30 * KB,
  onboarding: 30 * KB,
  depositWithWallet: 65 * KB,
  // The later flows (issues 17, 18), held at what they measure (bank deposit 33 081; payout 47 055,
  // 69 406 with its wallet code) + at most 0.7 KB.
  // Raised once, 2026-11-25 (issue 31), from 33 KB: measured 33 927. Its own code did not grow; the
  // first load every flow shares did (+261 B: a sixth flow on the start screen, the signed buyer's
  // checks), and the rails' limits moved into the amount chunk it already fetches.
  // Measured 2026-11-28: 33 711 (34 915 before, under the 34.2 KB it had been raised to four times).
  // Raised, 2026-11-28 (a later stop), from 33.25 KB (34 048 B): that stop's safety fixes took 154
  // of its 165 B of room (the words for a rate still held, every first load; the identity step's end
  // of the WalletConnect session it paired), measured 34 037; a payout-only change then moved the
  // chunks' hashed names, +19 B here with no code of this flow changed (34 056).
  bankDeposit: 33.5 * KB,
  // Measured 2026-11-28: 45 893 (47 680 before, 46 554 before issue 39).
  payout: 46.5 * KB,
  payoutWithWallet: 68 * KB,
  // The card payout (issue 31): the payout's kernel and screens with the card's own. Measured
  // 2026-11-25: 47 426 bytes, 67 081 with its wallet code; + at most 0.7 KB.
  cardPayout: 47 * KB,
  cardPayoutWithWallet: 66.2 * KB,
  // WalletConnect (issue 40): @walletconnect/sign-client with the provider over it, a file of its own
  // (vite.walletconnect.config.ts) fetched only once the buyer picks WalletConnect. Measured
  // 2026-11-27: 131 707 bytes. What puts it in the wallet list and draws its pairing code
  // (walletConnectOffer, walletConnectWallet, the loader; not the QR code and copy button the bank
  // deposit shares): 3 210 bytes, fetched as a deposit or payout looks for wallets, where offered.
  walletConnect: 130 * KB,
  // Raised, 2026-11-28, from 3.5 KB (3 584 B): measured 3 621. The words said only of a WalletConnect
  // session (its Disconnect, "your wallet ended the connection", Connect again) come with it, not with
  // the deposit's, payout's and bank flows' first loads.
  // Raised, 2026-11-28 (a later stop), from 3.6 KB (3 686 B): measured 3 712. The connect-wallet
  // effects shared with this chunk now end a WalletConnect session the phone approved after the buyer
  // left the choice, and clear the wait for a wallet that answered (an attacker's review).
  walletConnectList: 3.65 * KB,
}

describe('bundle budget (gzip)', () => {
  const sizes = measure(DIST)

  it(`the script-tag loader stays under ${BUDGET.loader} bytes`, () => {
    expect(sizes.loader).toBeLessThanOrEqual(BUDGET.loader)
  })

  it(`the hosted page's first load stays under ${BUDGET.initial} bytes`, () => {
    expect(sizes.initial).toBeLessThanOrEqual(BUDGET.initial)
  })

  it(`the card flow before its first interaction stays under ${BUDGET.card} bytes`, () => {
    expect(sizes.flows.card).toBeLessThanOrEqual(BUDGET.card)
  })

  it(`the onboarding flow before its first interaction stays under ${BUDGET.onboarding} bytes`, () => {
    expect(sizes.flows.onboarding).toBeLessThanOrEqual(BUDGET.onboarding)
  })

  it(`the deposit flow with its wallet code stays under ${BUDGET.depositWithWallet} bytes`, () => {
    expect(sizes.flows.deposit + sizes.wallet).toBeLessThanOrEqual(BUDGET.depositWithWallet)
  })

  it(`the bank deposit flow before its first interaction stays under ${BUDGET.bankDeposit} bytes`, () => {
    expect(sizes.flows.bankDeposit).toBeLessThanOrEqual(BUDGET.bankDeposit)
  })

  it(`the payout flow before its first interaction stays under ${BUDGET.payout} bytes, and with its wallet code under ${BUDGET.payoutWithWallet}`, () => {
    expect(sizes.flows.payout).toBeLessThanOrEqual(BUDGET.payout)
    expect(sizes.flows.payout + sizes.payoutWallet).toBeLessThanOrEqual(BUDGET.payoutWithWallet)
  })

  it(`the card payout before its first interaction stays under ${BUDGET.cardPayout} bytes, and with its wallet code under ${BUDGET.cardPayoutWithWallet}`, () => {
    expect(sizes.flows.cardPayout).toBeLessThanOrEqual(BUDGET.cardPayout)
    expect(sizes.flows.cardPayout + sizes.payoutWallet).toBeLessThanOrEqual(BUDGET.cardPayoutWithWallet)
  })

  it('viem is not part of the first load: it loads once a wallet is chosen', () => {
    const withViem = sizes.initialFiles.filter((f) => readFileSync(join(DIST, f), 'utf8').includes('viem@'))
    expect(sizes.initialFiles.length).toBeGreaterThan(0)
    expect(withViem).toEqual([])
    // It is in the wallet code instead (not a size guess: viem's own version mark).
    expect(sizes.walletFiles.some((f) => readFileSync(join(DIST, f), 'utf8').includes('viem@'))).toBe(true)
  })

  it("the loader's runtime is one module of its own: iframe() fetches the loader and it, never the widget's chunks", () => {
    const runtime = JSON.parse(readFileSync(join(DIST, '.vite', 'runtime.json'), 'utf8'))['src/embed/runtime.ts'].file
    const code = readFileSync(join(DIST, runtime), 'utf8')
    expect(code).not.toMatch(/\bimport\s*[{*\w]|\bimport\(/)
    expect(gzipSize(DIST, runtime)).toBeLessThanOrEqual(3 * KB)
    const loader = readFileSync(join(DIST, 'stablecoin-widget.js'), 'utf8')
    expect(loader).toContain(runtime)
  })

  it("the loader checks the runtime against the runtime's own hash (sha256; sri.json holds its sha384)", () => {
    const runtime = JSON.parse(readFileSync(join(DIST, '.vite', 'runtime.json'), 'utf8'))['src/embed/runtime.ts'].file
    const sri: Record<string, string> = JSON.parse(readFileSync(join(DIST, 'sri.json'), 'utf8'))
    const bytes = readFileSync(join(DIST, runtime))
    // sri.json's entry is this very file's, so the file is the one the loader was built with.
    expect(sri[runtime]).toBe(`sha384-${createHash('sha384').update(bytes).digest('base64')}`)
    const loader = readFileSync(join(DIST, 'stablecoin-widget.js'), 'utf8')
    expect(loader.match(/sha(256|384|512)-[\w+/]+=*/g)).toEqual([`sha256-${createHash('sha256').update(bytes).digest('base64')}`])
  })

  it('the loader is one classic script: no import statements, only the lazy import of the runtime', () => {
    const loader = readFileSync(join(DIST, 'stablecoin-widget.js'), 'utf8')
    expect(loader).not.toMatch(/^\s*import\s|\bexport\s*\{/m)
    expect(loader).toMatch(/import\(/)
  })
})

// The WalletConnect client is built on its own and named by the app (__WALLETCONNECT_CLIENT__).
describe('WalletConnect loads only when the buyer picks it (gzip)', () => {
  const client = () => JSON.parse(readFileSync(join(DIST, '.vite/walletconnect.json'), 'utf8'))['src/wallet/walletConnect/client.ts'].file as string
  it(`its client is one file under ${BUDGET.walletConnect} bytes, named by one chunk of the app; its place in the wallet list under ${BUDGET.walletConnectList}`, () => {
    const file = client()
    const code = readFileSync(join(DIST, file))
    expect(code.toString()).toContain('relay.walletconnect.org')
    expect(gzipSync(code, { level: 9 }).length).toBeLessThanOrEqual(BUDGET.walletConnect)
    const manifest = readManifest(DIST)
    const name = file.split('/').pop() as string
    const naming = Object.values(manifest)
      .map((c) => c.file)
      .filter((f) => f.endsWith('.js') && readFileSync(join(DIST, f), 'utf8').includes(name))
    expect(naming).toHaveLength(1)
    // The chunks that put it in the list (shared chunks are keyed by their file's name).
    const list = [
      ...new Set(
        Object.entries(manifest)
          .filter(([key]) => /walletConnect(Offer|Wallet|Loader)/.test(key))
          .map(([, c]) => c.file),
      ),
    ]
    expect(list).toContain(naming[0])
    expect(list.length).toBeGreaterThan(0)
    expect(list.reduce((total, f) => total + gzipSize(DIST, f), 0)).toBeLessThanOrEqual(BUDGET.walletConnectList)
  })

  it('no first load (the hosted page, any flow before its first interaction) holds any of it', () => {
    const manifest = readManifest(DIST)
    const keys = new Set([...closure(manifest, 'index.html'), ...Object.values(FLOW_ENTRIES).flatMap((entry) => [...closure(manifest, entry)])])
    const holding = [...keys]
      .map((key) => manifest[key].file)
      .filter((file) => /relay\.walletconnect\.org|wc@2:client|walletConnectWallet|walletconnect-/.test(readFileSync(join(DIST, file), 'utf8')))
    expect(keys.size).toBeGreaterThan(1)
    expect(holding).toEqual([])
  })
})
