// The payout's machine is pure (issue 30): it imports the kernel, lib/, the identity sub-machine,
// the api's types, and pure modules of its own folder held to the same rule. No storage, no api
// runtime values, no i18n, no errors, no wallet, no effects.
import { describe, expect, it } from 'vitest'
import { payoutStatuses } from '../../../../src/api/payout'
import { payoutFinal } from '../../../../src/lib/status/payout'
import { importsOf as read } from '../../helpers/imports'

type Import = { target: string; typeOnly: boolean }

/** Every import of a file, stated or dynamic (a dynamic import() is code that runs too). */
const importsOf = (file: string): Import[] => read(file).map((e) => ({ target: e.to, typeOnly: e.type }))

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
    expect(violations('src/flows/payout/beneficiary.ts')).toEqual([])
    expect(violations('src/flows/payout/cardStep.ts')).toEqual([])
  })

  it('the status list that ends a payout has no imports at all, and names only statuses the contract has', () => {
    expect(importsOf('src/lib/status/payout.ts')).toEqual([])
    expect(payoutStatuses).toEqual(expect.arrayContaining([...payoutFinal]))
  })
})
