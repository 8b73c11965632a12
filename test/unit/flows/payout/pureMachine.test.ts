// The payout's machine is pure (issue 30): it imports the kernel, lib/, the identity sub-machine,
// the api's types, and pure modules of its own folder held to the same rule. No storage, no api
// runtime values, no i18n, no errors, no wallet, no effects.
import { readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { payoutStatuses } from '../../../../src/api/payout'
import { payoutFinal } from '../../../../src/lib/status/payout'

type Import = { target: string; typeOnly: boolean }

function importsOf(file: string): Import[] {
  const code = readFileSync(file, 'utf8')
  const at = (path: string) => (path.startsWith('.') ? relative('src', resolve(dirname(file), path)) : path)
  const stated = [...code.matchAll(/^\s*(?:import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?'([^']+)'/gm)].map((m) => ({ target: at(m[2]), typeOnly: !!m[1] }))
  // A dynamic import() is code that runs too.
  const dynamic = [...code.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)].map((m) => ({ target: at(m[1]), typeOnly: false }))
  return [...stated, ...dynamic]
}

const withTs = (path: string) => `src/${path}.ts`

/** What a pure module of the payout may import; its own folder's modules are followed. */
function violations(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return []
  seen.add(file)
  return importsOf(file).flatMap(({ target, typeOnly }) => {
    if (/^(kernel|lib)\//.test(target) || target === 'identity/machine') return []
    if (target.startsWith('api/') && typeOnly) return []
    if (target.startsWith('flows/payout/')) return violations(withTs(target), seen)
    return [`${file} → ${target}${typeOnly ? ' (type)' : ''}`]
  })
}

describe('the payout machine is pure', () => {
  it('reads its imports (the check sees the real ones)', () => {
    expect(importsOf('src/flows/payout/machine.ts').map((i) => i.target)).toContain('kernel/quote')
  })

  it('machine.ts and the modules of its folder it imports reach no storage, api runtime, i18n, errors or wallet', () => {
    expect(violations('src/flows/payout/machine.ts')).toEqual([])
  })

  it('so do the destination steps the flow entries hand it (the bank beneficiary, the card page)', () => {
    expect(violations('src/flows/payout/beneficiaryStep.ts')).toEqual([])
    expect(violations('src/flows/payout/cardStep.ts')).toEqual([])
  })

  it('the status list that ends a payout has no imports at all, and names only statuses the contract has', () => {
    expect(importsOf('src/lib/status/payout.ts')).toEqual([])
    expect(payoutStatuses).toEqual(expect.arrayContaining([...payoutFinal]))
  })
})
