// A beneficiary field's problem reaches the buyer through errors/payoutWords.ts: the flow carries
// what is wrong (and its numbers), never a catalog key.
import { beforeAll, describe, expect, it } from 'vitest'
import { fieldProblemText } from '../../../src/errors/payoutWords'
import { enBeneficiary } from '../../../src/i18n/en-beneficiary'
import { addEnglish } from '../../../src/i18n/i18n'

beforeAll(() => addEnglish(enBeneficiary))

describe('a beneficiary field’s problem in words', () => {
  it('says the problem with its numbers', () => {
    expect(fieldProblemText({ kind: 'ibanLength', country: 'DE', length: 22, actual: 21 })).toBe(
      'An IBAN from DE has 22 characters, and this one has 21. Check for a missing or extra character.',
    )
    expect(fieldProblemText({ kind: 'accountDigits', min: 4, max: 17 })).toBe('Use digits only: 4 to 17 of them.')
    expect(fieldProblemText({ kind: 'tooLong', max: 512 })).toBe('This is too long: at most 512 characters.')
  })

  it('says a problem without numbers, the service’s refusal too', () => {
    expect(fieldProblemText({ kind: 'clabeChecksum' })).toBe(enBeneficiary['payout.problem.clabeChecksum'])
    expect(fieldProblemText({ kind: 'refused' })).toBe(enBeneficiary['payout.problem.refused'])
  })
})
