// A tab at the deposit flow whose stored-record check cannot be fetched yet (offline, or its chunk
// gone), on fresh module copies: the setup file has loaded every check, these start without any.
import { vi } from 'vitest'
import type { DepositEvent } from '../../../src/flows/deposit/machine'
import { depositConfig } from './deposit'
import { memoryStorage } from './memoryStorage'

export const tick = () => new Promise((r) => setTimeout(r, 0))

export async function freshDeposit() {
  vi.resetModules()
  const effects = await import('../../../src/flows/deposit/effects')
  const persisted = await import('../../../src/flows/deposit/persisted')
  const machine = await import('../../../src/flows/deposit/machine')
  const checked = await import('../../../src/storage/storedCheck')
  return { ...effects, ...persisted, ...machine, ...checked }
}

export type FreshDeposit = Awaited<ReturnType<typeof freshDeposit>>

/** The storage event another tab's write fires in this one. */
export function storageEvent(key: string, newValue: string) {
  return Object.assign(new Event('storage'), { key, newValue })
}

/** The deposit's effects with only a store and a window: every other seam refuses, none is used here. */
export function storeOnlyEffects(
  m: FreshDeposit,
  store: Parameters<FreshDeposit['createDepositEffects']>[0]['store'],
  target: Window,
  dispatch: (event: DepositEvent) => void,
) {
  return m.createDepositEffects(
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
}

/**
 * A tab at the deposit flow whose stored-record check cannot be fetched until `online()`. `write`:
 * another tab stores `value` under the deposit key and this tab hears its storage event(s).
 */
export async function offlineTab(dispatch?: (event: DepositEvent) => void) {
  const m = await freshDeposit()
  const storage = memoryStorage()
  const inner = m.depositStore(storage)
  let offline = true
  const store = { ...inner, ready: () => (offline ? Promise.reject(new Error('offline')) : m.depositChecks.load()) }
  const target = new EventTarget() as unknown as Window
  const events: DepositEvent[] = []
  const fx = storeOnlyEffects(m, store, target, dispatch ?? ((event) => events.push(event)))
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
