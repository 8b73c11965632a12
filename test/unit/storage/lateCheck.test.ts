// A stored-record check that arrives late (its first fetch failed): the read it held back runs on
// the record as it is then, never for a disposed flow, never unchecked, and a disposed flow is not
// kept alive by the wait. Every test asserts the safe behaviour.
import v8 from 'node:v8'
import vm from 'node:vm'
import { describe, expect, it, vi } from 'vitest'
import type { PayoutRecord } from '../../../src/flows/payout/record'
import { depositConfig, trackingOf } from '../helpers/deposit'
import type { DepositEvent, DepositState } from '../../../src/flows/deposit/machine'
import { memoryStorage } from '../helpers/memoryStorage'
import { payoutRecord } from '../helpers/payout'

const tick = () => new Promise((r) => setTimeout(r, 0))

// ---------------------------------------------------------------------------------------------
// whenChecked(…, arrived): a late read
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
    {
      config: depositConfig,
      store,
      target,
      api: {} as never,
      partner: () => Promise.reject(new Error('unused')),
      clock: {} as never,
      loadChainActions: () => Promise.reject(new Error('unused')),
    },
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
    const fx = createPayoutEffects({ store, references: { clear: () => cleared++ } } as never, () => {})
    storage.setItem(flowKey('payout'), JSON.stringify({ records: [record({ id: 'po_1' })] }))
    // The buyer leaves the ended payout's result for a new one ("New payout"): that record goes.
    fx.run({ tag: 'form', limits: {}, abandoned: 'po_1' } as never)
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
          {
            config: depositConfig,
            store,
            target,
            api: {} as never,
            partner: () => Promise.reject(new Error('unused')),
            clock: {} as never,
            loadChainActions: () => Promise.reject(new Error('unused')),
          },
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
