// The bank payout's calls to the service (through the partner's backend): its quote, its creation
// with the `beneficiary` as it is sent (built from the schema's own fields, an EVM address held to
// its EIP-55 checksum and sent with it), its status. Loaded with the bank payout only (by import(),
// PayoutFlow.tsx): viem's keccak-256 comes with it, never with the first load.
import { keccak256 } from 'viem/utils'
import { createPayout, getPayoutStatus, quotePayout } from '../../api/payout'
import { payoutProblem } from '../../errors/payoutWords'
import { checkEvmForm } from './accountChecks'
import { type Beneficiary, type Values, validateBeneficiary } from './beneficiary'
import { beneficiarySchema } from './beneficiarySchemas'
import type { PayoutCalls, PayoutContext, StateOf } from './context'
import { created, failed, referenceFor } from './creating'
import type { BeneficiarySchema, FieldProblem } from './destination'

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

/** POST /bank/payout: the beneficiary as its schema builds it (only the fields it defines). */
async function create(ctx: PayoutContext, state: StateOf<'beneficiary'>, alive: () => boolean) {
  const schema = state.draft.schema
  const built = schema ? buildBeneficiary(beneficiarySchema(schema), state.draft.values) : undefined
  if (!schema || !built) return ctx.destination({ type: 'CREATE_FAILED', problem: payoutProblem({ kind: 'beneficiary' }) })
  // What only the request's own checks see (an address's EIP-55 checksum): said on its field, nothing sent.
  if (!built.ok) return ctx.destination({ type: 'INVALID', problems: built.problems })
  const purpose = beneficiarySchema(schema).purpose ? state.draft.purpose.trim().replace(/\s+/g, ' ') : ''
  const request = { quoteId: state.quote.quoteId, accountId: state.buyer.accountId, beneficiary: built.beneficiary, ...(purpose ? { purpose } : {}) }
  const reference = await referenceFor(ctx, state, request, alive)
  if (reference === undefined) return
  try {
    created(ctx, state, await createPayout(ctx.partner, { ...request, reference }), alive)
  } catch (error) {
    failed(ctx, error, alive)
  }
}

export type BuildResult = { ok: true; beneficiary: Beneficiary } | { ok: false; problems: Record<string, FieldProblem> }

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

/** An address's form (accountChecks.ts), then its checksum: a mixed-case address must match it (one case carries none). */
export function checkEvmAddress(value: string): FieldProblem | undefined {
  const form = checkEvmForm(value)
  if (form) return form
  const hexPart = value.slice(2)
  if (hexPart === hexPart.toLowerCase() || hexPart === hexPart.toUpperCase()) return undefined
  return checksumAddress(value) === value ? undefined : { kind: 'evmChecksum' }
}

/**
 * The `beneficiary` to send: `name`, `schema`, and the schema's own fields, normalised. A value
 * under any other name (another schema's field left in the form) is dropped; an empty optional
 * field is left out rather than sent empty.
 */
export function buildBeneficiary(schema: BeneficiarySchema, values: Values): BuildResult {
  const problems = validateBeneficiary(schema, values)
  for (const f of schema.fields) {
    const problem = f.eip55 && !problems[f.name] ? checkEvmAddress(f.normalise(values[f.name] ?? '')) : undefined
    if (problem) problems[f.name] = problem
  }
  if (Object.keys(problems).length > 0) return { ok: false, problems }
  const out: Record<string, string | Record<string, string>> = {}
  for (const f of schema.fields) {
    const value = f.normalise(values[f.name] ?? f.initial ?? '')
    if (value === '') continue
    const [outer, inner] = f.name.split('.')
    const sent = f.eip55 ? checksumAddress(value) : value
    if (inner === undefined) out[outer] = sent
    else out[outer] = { ...(out[outer] as Record<string, string> | undefined), [inner]: sent }
  }
  return { ok: true, beneficiary: { ...out, name: out.name as string, schema: schema.id } }
}
