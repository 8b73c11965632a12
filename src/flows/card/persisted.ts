import * as z from 'zod/mini'
import { createFlowStore, type FlowStore } from '../../storage/flowStore'
import type { Purchase } from './machine'

const purchase = z.object({
  id: z.string().check(z.minLength(1)),
  environment: z.string(),
  currency: z.string(),
  total: z.string(),
  cryptoAmount: z.string(),
  cryptoCurrency: z.string(),
  createdAt: z.number(),
})

export function cardStore(storage: Storage | undefined): FlowStore<Purchase> {
  return createFlowStore(storage, 'card', (value) => {
    const parsed = purchase.safeParse(value)
    return parsed.success ? parsed.data : undefined
  })
}
