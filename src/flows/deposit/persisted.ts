import * as z from 'zod/mini'
import { createFlowStore, type FlowStore } from '../../storage/flowStore'
import type { Tracking } from './machine'

const tracking = z.object({
  provider: z.string(),
  chainId: z.number(),
  // Empty only while a batch (callsId) has not told the deposit's hash.
  txHash: z.string().check(z.regex(/^(0x[0-9a-fA-F]{64})?$/)),
  callsId: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))),
  walletRdns: z.optional(z.string()),
  summary: z.object({
    amountIn: z.string(),
    amountOut: z.string(),
    fee: z.string(),
    sourceChainId: z.number(),
    destChainId: z.number(),
    sourceSymbol: z.string(),
    destSymbol: z.string(),
  }),
  createdAt: z.number(),
  approvalHash: z.optional(z.string()),
  originHash: z.optional(z.string()),
  deliveredHash: z.optional(z.string()),
})

export function depositStore(storage: Storage | undefined): FlowStore<Tracking> {
  return createFlowStore(storage, 'deposit', (value) => {
    const parsed = tracking.safeParse(value)
    return parsed.success && (parsed.data.txHash || parsed.data.callsId) ? parsed.data : undefined
  })
}
