// The check of the deposit kept across a reload (persisted.ts fetches it when needed: see storage/storedCheck.ts).
import * as z from 'zod/mini'
import type { Tracking } from './machine'

const schema = z.object({
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
  // The kit's answer for that hash (report.ts): an id as the kit's answer schema allows it.
  kit: z.optional(z.object({ txHash: z.string(), id: z.string().check(z.minLength(1), z.maxLength(256)) })),
  // Paid by address: the transfer watched for (byAddressEffects.ts), its address and token 0x addresses.
  watch: z.optional(
    z.object({
      address: z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/)),
      token: z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/)),
      units: z.string().check(z.regex(/^\d{1,78}$/)),
      fromBlock: z.string().check(z.regex(/^\d{1,20}$/)),
      expiresAt: z.string().check(z.maxLength(64)),
    }),
  ),
})

/** Only a sent deposit is kept: a hash, a batch's id while its hash is not known, or a transfer watched for. */
export function tracking(value: unknown): Tracking | undefined {
  const parsed = schema.safeParse(value)
  return parsed.success && (parsed.data.txHash || parsed.data.callsId || parsed.data.watch) ? parsed.data : undefined
}
