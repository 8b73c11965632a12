// The bank payout's calls to the service (through the partner's backend): its quote, its creation
// with the `beneficiary` the checked form built (beneficiary.ts), its EVM addresses sent with their
// EIP-55 checksum, and its status. Loaded with the bank payout only (by import(), PayoutFlow.tsx):
// viem's keccak-256 comes with it, never with the first load.
import { keccak256 } from 'viem/utils'
import { type Beneficiary, createPayout, getPayoutStatus, quotePayout } from '../../api/payout'
import { payoutProblem } from '../../errors/payoutWords'
import type { PayoutCalls, PayoutContext, StateOf } from './context'
import { created, failed, referenceFor } from './creating'
import type { FieldProblem, Sending } from './destination'

export const bankCalls: PayoutCalls = {
  quote(ctx, ask, signal) {
    const amount = ask.kind === 'crypto' ? { cryptoAmount: ask.amount } : { fiatAmount: ask.amount }
    const { source } = ctx
    return quotePayout(
      ctx.partner,
      {
        cryptoCurrency: source.symbol,
        chain: source.chainId,
        fiatCurrency: ask.currency,
        country: ask.country,
        ...amount,
        ...(ask.rail ? { rail: ask.rail } : {}),
      },
      signal,
    )
  },
  status: (ctx, id) => getPayoutStatus(ctx.partner, id),
  create: (ctx, state, alive) => (state.tag === 'beneficiary' ? create(ctx, state, alive) : Promise.resolve()),
}

/** POST /bank/payout: what the form sent when it was submitted (its checks passed), its addresses with their checksum. */
async function create(ctx: PayoutContext, state: StateOf<'beneficiary'>, alive: () => boolean) {
  const { sending } = state
  if (!sending) return ctx.destination({ type: 'CREATE_FAILED', problem: payoutProblem({ kind: 'beneficiary' }) })
  const checked = withChecksums(sending)
  // What only the request's own check sees (an address's EIP-55 checksum): said on its field, nothing sent.
  if (!checked.ok) return ctx.destination({ type: 'INVALID', problems: checked.problems })
  const { purpose } = sending
  const request = { quoteId: state.quote.quoteId, accountId: state.buyer.accountId, beneficiary: checked.beneficiary, ...(purpose ? { purpose } : {}) }
  const reference = await referenceFor(ctx, state, request, alive)
  if (reference === undefined) return
  try {
    created(ctx, state, await createPayout(ctx.partner, { ...request, reference }), alive)
  } catch (error) {
    failed(ctx, error, alive)
  }
}

/** EIP-55: each letter in capitals where the keccak-256 of the lowercase hex has a nibble of 8 or more. */
export function checksumAddress(address: string): string {
  const hexPart = address.slice(2).toLowerCase()
  const hash = keccak256(new TextEncoder().encode(hexPart), 'bytes')
  let out = '0x'
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 15
    out += nibble >= 8 ? hexPart[i].toUpperCase() : hexPart[i]
  }
  return out
}

/** An address of the right form (the form checked it) against its checksum: a mixed-case one must match it (one case carries none). */
export function checksumProblem(address: string): FieldProblem | undefined {
  const hexPart = address.slice(2)
  if (hexPart === hexPart.toLowerCase() || hexPart === hexPart.toUpperCase()) return undefined
  return checksumAddress(address) === address ? undefined : { kind: 'evmChecksum' }
}

/** The beneficiary as sent: each of its addresses held to its checksum and sent with it. */
export function withChecksums({
  beneficiary,
  addresses,
}: Sending): { ok: true; beneficiary: Beneficiary } | { ok: false; problems: Record<string, FieldProblem> } {
  const problems: Record<string, FieldProblem> = {}
  const sent: Beneficiary = { ...beneficiary }
  for (const name of addresses) {
    const typed = beneficiary[name]
    if (typeof typed !== 'string') continue
    const problem = checksumProblem(typed)
    if (problem) problems[name] = problem
    else sent[name] = checksumAddress(typed)
  }
  return Object.keys(problems).length > 0 ? { ok: false, problems } : { ok: true, beneficiary: sent }
}
