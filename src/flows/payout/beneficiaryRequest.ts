// The `beneficiary` as it is sent: built from the schema's own fields, and an EVM address held to
// its EIP-55 checksum and sent with it. Fetched by the create step (creating.ts) with viem's
// keccak-256, never with the form: the payout's first load carries no hash.
import { keccak256 } from 'viem/utils'
import { checkEvmForm } from './accountChecks'
import { type Beneficiary, type BeneficiarySchema, type Values, validateBeneficiary } from './beneficiary'
import type { FieldProblem } from './fieldProblem'

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
