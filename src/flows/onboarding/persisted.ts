import * as z from 'zod/mini'
import { createFlowStore, type FlowStore } from '../../storage/flowStore'
import type { AccountRecord } from './machine'

const record = z.object({
  accountId: z.string().check(z.minLength(1)),
  walletId: z.string().check(z.minLength(1)),
  virtualAccountId: z.optional(z.string()),
  details: z.optional(z.record(z.string(), z.string())),
  feeBps: z.optional(z.number()),
})

export function onboardingStore(storage: Storage | undefined): FlowStore<AccountRecord> {
  return createFlowStore(storage, 'onboarding', (value) => {
    const parsed = record.safeParse(value)
    return parsed.success ? parsed.data : undefined
  })
}

const USED = 'stablecoin-widget:v1:used-auth-codes'

/** Auth codes are single use: one the service has seen (accepted or not) is never sent again. */
export function usedAuthCodes(storage: Storage | undefined) {
  const read = (): string[] => {
    try {
      const list = JSON.parse(storage?.getItem(USED) ?? '[]')
      return Array.isArray(list) ? list.filter((c) => typeof c === 'string') : []
    } catch {
      return []
    }
  }
  return {
    has: (code: string) => read().includes(code),
    add(code: string) {
      try {
        storage?.setItem(USED, JSON.stringify([...read().filter((c) => c !== code), code].slice(-20)))
      } catch {
        // without storage the code is still dropped from the address bar
      }
    },
  }
}
