import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../src/errors/ApiError'
import { describeError } from '../../../src/errors/describeError'
import { refusedPermission, withKitWords } from '../../../src/errors/kitWords'
import { errorPayload, problemText } from '../../../src/errors/words'

// Issue 39: the service's codes that only the partner path carries, in the buyer's words, and the
// permission a refused key lacks named for the partner's logs (partner-api.md, Authentication 7).
describe('the service codes on the partner path', () => {
  it.each([
    ['/bank/payout/quote', 'missing permission: bank-payouts (/bank/payout/quote)'],
    ['/bank/payout/status', 'missing permission: bank-payouts (/bank/payout/status)'],
    ['/bank/deposit', 'missing permission: bank (/bank/deposit)'],
    ['/card/payout/card-session', 'missing permission: card-payouts (/card/payout/card-session)'],
    ['/virtual-accounts?limit=5', 'missing permission: virtual-accounts (/virtual-accounts)'],
    // The contract names no permission for the card purchase: the call refused is said instead.
    ['/card/purchase', 'permission refused for /card/purchase'],
  ])('permission_denied on %s names %s', (path, detail) => {
    expect(refusedPermission(path)).toBe(detail)
    const problem = describeError(withKitWords(new ApiError(403, 'permission_denied', 'The key lacks it.'), path))
    expect(problem).toEqual({ key: 'partner.notOffered', code: 'permission_denied', detail })
    expect(errorPayload(problem, problemText(problem))).toEqual({
      code: 'permission_denied',
      detail,
      message: 'This shop does not offer this here. Nothing was started or sent. Choose another option, or ask the shop.',
    })
  })

  it.each([
    ['KYC_PENDING', 'Your identity check is still running, so this cannot go ahead yet. Nothing was created or sent. Try again in a few minutes.'],
    [
      'KYC_REJECTED',
      'Your identity check was not approved, so this cannot go ahead. Nothing was created or sent. Ask the site you came from how to verify again.',
    ],
  ])('%s is said in true words, never as "something went wrong"', (code, words) => {
    const problem = describeError(withKitWords(new ApiError(400, code, 'The identity check is still pending.'), '/bank/payout'))
    expect(problem.key).not.toBe('error.unknown')
    expect(problemText(problem)).toBe(words)
  })
})
