// Review, from an attacker's side, of 6262ead (fixes of an earlier review): the `arrived` wait of a
// stored-record read whose check failed to fetch, Object.hasOwn for live options, and URLs with a
// user name or password. Every test asserts the safe behaviour.
import { readFileSync } from 'node:fs'
import v8 from 'node:v8'
import vm from 'node:vm'
import { describe, expect, it, vi } from 'vitest'
import { parseLiveOptions, parseOptions } from '../../../src/config/config'
import { type RegistryEntry, resolveLink } from '../../../src/config/link'
import type { PayoutRecord } from '../../../src/flows/payout/machine'
import { depositConfig, trackingOf } from '../helpers/deposit'
import type { DepositEvent, DepositState } from '../../../src/flows/deposit/machine'
import { memoryStorage } from '../helpers/memoryStorage'
import { payoutRecord } from '../helpers/payout'

const registry: RegistryEntry[] = JSON.parse(readFileSync('test/fixtures/partners.json', 'utf8'))
const NOW = Date.UTC(2026, 10, 23, 12)
const tick = () => new Promise((r) => setTimeout(r, 0))

// ---------------------------------------------------------------------------------------------
// (3) URLs with a user name or password
// ---------------------------------------------------------------------------------------------

/** Every spelling a browser reads as carrying credentials (WHATWG URL, as the browser parses it). */
const withCredentials = [
  'https://%61@shop.acme.test/', // percent-encoded user
  'https://%40@shop.acme.test/', // an encoded '@' as the user
  'https://a%00@shop.acme.test/',
  'https://:x@shop.acme.test/', // a password alone
  'HTTPS://a@shop.acme.test/', // upper-case scheme
  'https:\\\\a@shop.acme.test/', // backslashes read as slashes
  'https:a@shop.acme.test/', // no slashes at all
  'https://a\t@shop.acme.test/', // a tab the parser strips
  ' https://a@shop.acme.test/', // leading space the parser strips
  'https://shop.acme.test:443@evil.test/', // the registered origin dressed up as a user:password
  'https://shöp.acme.test@shop.acme.test/', // IDN in the user part
]

/** Spellings with no credentials once parsed (an empty user is dropped by the parser). */
const harmless = ['https://@shop.acme.test/done', 'https://:@shop.acme.test/done', 'https://shop.acme.test\\@evil.test/']

const credentialsOf = (s: string) => {
  const url = new URL(s)
  return url.username + url.password
}

describe('URLs with credentials: no spelling gets through the options', () => {
  it.each(withCredentials)('%s is read as carrying credentials (the test input is what it claims)', (url) => {
    expect(credentialsOf(url)).not.toBe('')
  })
  it.each(['apiBase', 'partnerBase', 'identityUrl', 'returnUrl'])('%s: every spelling refused', (key) => {
    for (const url of withCredentials) {
      const result = parseOptions({ apiBase: 'https://api.payments.test', [key]: url })
      expect(result.ok, `${key}=${url}`).toBe(false)
    }
  })
  it('a chain rpcUrl / explorerUrl with credentials is refused too', () => {
    for (const url of withCredentials) {
      expect(parseOptions({ apiBase: 'https://api.payments.test', chains: [{ id: 8453, name: 'Base', rpcUrl: url }] }).ok).toBe(false)
      expect(parseOptions({ apiBase: 'https://api.payments.test', chains: [{ id: 8453, name: 'Base', explorerUrl: url }] }).ok).toBe(false)
    }
  })
  it('what is accepted never carries credentials once a browser parses it', () => {
    for (const url of harmless) {
      const result = parseOptions({ apiBase: 'https://api.payments.test', returnUrl: url })
      if (result.ok && result.config.returnUrl) expect(credentialsOf(result.config.returnUrl)).toBe('')
    }
  })
})

describe('an unsigned link: a returnUrl with credentials never counts as inside the registered return origins', () => {
  it.each(withCredentials)('%s', async (url) => {
    const link = await resolveLink(`?partner=acme-shop&flow=deposit&returnUrl=${encodeURIComponent(url)}`, registry, NOW)
    expect(link.ok).toBe(false)
  })
  it('raw (unencoded) in the query, as a hand-made link has it', async () => {
    for (const url of withCredentials.filter((u) => !u.includes('%') && !u.includes('#') && !u.includes('&'))) {
      const link = await resolveLink(`?partner=acme-shop&flow=deposit&returnUrl=${url}`, registry, NOW)
      if (link.ok) {
        const returnUrl = link.options.returnUrl as string
        expect(credentialsOf(returnUrl), returnUrl).toBe('')
      }
    }
  })
  it('a harmless spelling that is accepted lands on the registered origin without credentials', async () => {
    for (const url of harmless) {
      const link = await resolveLink(`?partner=acme-shop&flow=deposit&returnUrl=${encodeURIComponent(url)}`, registry, NOW)
      if (!link.ok) continue
      const parsed = new URL(link.options.returnUrl as string)
      expect(parsed.origin).toBe('https://shop.acme.test')
      expect(parsed.username + parsed.password).toBe('')
      // …and the full options then pass parseOptions without credentials either.
      const options = parseOptions(link.options)
      if (options.ok && options.config.returnUrl) expect(credentialsOf(options.config.returnUrl)).toBe('')
    }
  })
  it('look-alike origins still need a signature (IDN, trailing dot, fullwidth dot)', async () => {
    for (const url of ['https://shöp.acme.test/', 'https://xn--shp-qla.acme.test/', 'https://shop.acme.test./', 'https://shop.acme.test\u3002/', 'https://evil.test#@shop.acme.test', 'https://evil.test?@shop.acme.test']) {
      const link = await resolveLink(`?partner=acme-shop&flow=deposit&returnUrl=${encodeURIComponent(url)}`, registry, NOW)
      expect(link.ok, url).toBe(false)
    }
  })
})

// ---------------------------------------------------------------------------------------------
// (2) live options: Object.hasOwn
// ---------------------------------------------------------------------------------------------

describe('live options: nothing but the live options gets in', () => {
  it.each(['constructor', 'toString', '__proto__', '__defineGetter__', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__lookupGetter__'])(
    '%s (own, as a structured clone makes it)',
    (key) => {
      expect(parseLiveOptions(JSON.parse(`{${JSON.stringify(key)}:"x"}`))).toMatchObject({ ok: false })
    },
  )
  it('a registry-only option under a live one, or with a different case, is refused', () => {
    for (const key of ['apiBase', 'Amount', 'AMOUNT', 'lockAmount', 'returnUrl', 'amount ', 'theme\u0000']) {
      expect(parseLiveOptions({ [key]: 'x' }), key).toMatchObject({ ok: false })
    }
  })
  it('what comes out holds the live options only, whatever else the object had', () => {
    const options = Object.create(null) as Record<string, unknown>
    options.theme = 'dark'
    Object.defineProperty(options, 'apiBase', { value: 'https://evil.test', enumerable: false })
    options[Symbol('x') as unknown as string] = 'y'
    const result = parseLiveOptions(options)
    expect(result.ok).toBe(true)
    if (result.ok) expect(Object.keys(result.update).sort()).toEqual(['theme'])
  })
  it('a bad value under a live key is still refused', () => {
    expect(parseLiveOptions({ amount: '1e9' })).toMatchObject({ ok: false })
    expect(parseLiveOptions({ locale: '../../x' })).toMatchObject({ ok: false })
  })
})

// ---------------------------------------------------------------------------------------------
// (1) whenChecked(…, arrived): a late read
// ---------------------------------------------------------------------------------------------

const record = payoutRecord

/** Fresh module copies: the setup file has loaded every check; these start without any. */
async function freshDeposit() {
  vi.resetModules()
  const effects = await import('../../../src/flows/deposit/effects')
  const persisted = await import('../../../src/flows/deposit/persisted')
  const machine = await import('../../../src/flows/deposit/machine')
  const checked = await import('../../../src/storage/storedCheck')
  return { ...effects, ...persisted, ...machine, ...checked }
}

function storageEvent(key: string, newValue: string) {
  return Object.assign(new Event('storage'), { key, newValue })
}

/**
 * A tab at the deposit flow whose stored-record check cannot be fetched until `online()`. `write`:
 * another tab stores `value` under the deposit key and this tab hears its storage event(s).
 */
async function offlineTab(dispatch?: (event: DepositEvent) => void) {
  const m = await freshDeposit()
  const storage = memoryStorage()
  const inner = m.depositStore(storage)
  let offline = true
  const store = { ...inner, ready: () => (offline ? Promise.reject(new Error('offline')) : m.depositChecks.load()) }
  const target = new EventTarget() as unknown as Window
  const events: DepositEvent[] = []
  const fx = m.createDepositEffects(
    { config: depositConfig, store, target, api: {} as never, clock: {} as never, loadChainActions: () => Promise.reject(new Error('unused')) },
    dispatch ?? ((event) => events.push(event)),
  )
  return {
    m,
    events,
    fx,
    async write(value: string, times = 1) {
      storage.setItem(m.flowKey('deposit'), value)
      for (let i = 0; i < times; i++) target.dispatchEvent(storageEvent(inner.key, value))
      await tick()
    },
    remove: () => storage.removeItem(m.flowKey('deposit')),
    async online() {
      offline = false
      await m.depositChecks.load()
      await tick()
    },
  }
}

const sentElsewhere = () => JSON.stringify(trackingOf(`0x${'b'.repeat(64)}`))

describe('deposit: a late adoption (the check arrived after a failed fetch)', () => {
  it('never reaches a flow disposed in between', async () => {
    const tab = await offlineTab()
    await tab.write(sentElsewhere())
    tab.fx.dispose()
    await tab.online()
    expect(tab.events).toEqual([])
  })

  it('reads the record as it is when the check arrives: one the other tab has since finished (cleared) is not adopted', async () => {
    const tab = await offlineTab()
    await tab.write(sentElsewhere())
    tab.remove() // the other tab reached its result
    await tab.online()
    expect(tab.events).toEqual([])
    tab.fx.dispose()
  })

  it('a tampered record written while offline is checked when it arrives, never adopted unchecked', async () => {
    const tab = await offlineTab()
    await tab.write(JSON.stringify({ ...trackingOf('0xnothex'), chainId: 'x' }))
    await tab.online()
    expect(tab.events).toEqual([])
    tab.fx.dispose()
  })

  it('many storage events while offline: at most the one adoption takes effect, and never one past sending', async () => {
    const ctx = { sourceDecimals: [6], decimalMark: '.' as const }
    // This tab is already sending its own deposit when the late adoption comes.
    let state = { tag: 'quote', work: 'sending' } as unknown as DepositState
    const before = state
    const tab = await offlineTab((event) => (state = tab.m.transition(state, event, ctx)))
    await tab.write(sentElsewhere(), 20)
    await tab.online()
    expect(state).toBe(before)
    tab.fx.dispose()
  })
})

describe('payout: a late forget clears that payout only', () => {
  it('another payout saved meanwhile (same buyer, other id; other buyer) stays', async () => {
    vi.resetModules()
    const { createPayoutEffects } = await import('../../../src/flows/payout/effects')
    const persisted = await import('../../../src/flows/payout/persisted')
    const { flowKey } = await import('../../../src/storage/storedCheck')
    const storage = memoryStorage()
    const inner = persisted.payoutStore(storage)
    let offline = true
    const store = { ...inner, ready: () => (offline ? Promise.reject(new Error('offline')) : persisted.payoutChecks.load()) }
    let cleared = 0
    const fx = createPayoutEffects(
      { store, references: { clear: () => cleared++ } } as never,
      () => {},
    )
    storage.setItem(flowKey('payout'), JSON.stringify({ records: [record({ id: 'po_1' })] }))
    fx.run({ tag: 'result', record: record({ id: 'po_1' }) } as never)
    await tick()
    fx.dispose()
    // While the check could not come: the buyer made another payout (written as the store writes it), another buyer too.
    storage.setItem(
      flowKey('payout'),
      JSON.stringify({ records: [record({ id: 'po_1' }), record({ id: 'po_2', accountId: 'acc_2' }), record({ id: 'po_3' })] }),
    )
    offline = false
    await persisted.payoutChecks.load()
    await tick()
    expect(cleared).toBe(1)
    const left = (JSON.parse(storage.getItem(flowKey('payout')) ?? '{}').records as PayoutRecord[]).map((r) => r.id)
    expect(left).toEqual(['po_2', 'po_3'])
  })
})

describe('pending arrivals keep nothing of a disposed flow', () => {
  // The check chunk never comes (offline for good, or a deploy removed the hashed chunk): each
  // mount that heard another tab's deposit waits on the module-wide `arrived` promise. A disposed
  // mount must not stay reachable from it (an SPA remounting the widget would keep every one).
  it('a deposit flow disposed while its adoption waits on `arrived` can be collected', async () => {
    v8.setFlagsFromString('--expose-gc')
    const gc = vm.runInNewContext('gc') as () => void
    const m = await freshDeposit()
    const storage = memoryStorage()
    const inner = m.depositStore(storage)
    const never = new Promise<unknown>(() => {}) // as depositChecks.arrived() while the chunk never loads
    const store = { ...inner, ready: () => Promise.reject(new Error('offline')), arrived: () => never }
    const value = JSON.stringify(trackingOf(`0x${'b'.repeat(64)}`))
    storage.setItem(m.flowKey('deposit'), value)

    const refs: Array<WeakRef<object>> = []
    for (let i = 0; i < 5; i++) {
      await (async () => {
        const target = new EventTarget() as unknown as Window
        // Stands for the mount's whole tree, which its dispatch keeps alive.
        const tree = { big: new Array(10_000).fill(i) }
        const dispatch = (event: unknown) => void (tree.big.length && event)
        refs.push(new WeakRef(tree))
        const fx = m.createDepositEffects(
          { config: depositConfig, store, target, api: {} as never, clock: {} as never, loadChainActions: () => Promise.reject(new Error('unused')) },
          dispatch,
        )
        target.dispatchEvent(storageEvent(inner.key, value))
        await tick()
        fx.dispose()
      })()
    }
    for (let i = 0; i < 5; i++) {
      await tick()
      gc()
    }
    expect(refs.filter((r) => r.deref() !== undefined).length).toBe(0)
    void never
  })
})
