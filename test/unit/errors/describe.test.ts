import { describe, expect, it } from 'vitest'
import { describeError } from '../../../src/errors/describeError'
import { ApiError, NetworkError, RateLimitedError, ResponseShapeError } from '../../../src/errors/ApiError'

describe('describeError', () => {
  it.each([
    [new ApiError(400, 'no_route', 'm'), { key: 'quote.noRoute', code: 'no_route' }],
    [new ApiError(422, 'no_route', 'm'), { key: 'error.noRail', code: 'no_route' }],
    [new ApiError(403, 'chain_not_allowed', 'm'), { key: 'error.chainNotAllowed', code: 'chain_not_allowed' }],
    [new ApiError(400, 'invalid_request', 'country: bad'), { key: 'error.invalid', code: 'invalid_request', detail: 'country: bad' }],
    // Issue 39, item 12: an amount the service refused is said in the buyer's words, its text kept for support.
    [new ApiError(400, 'invalid_request', 'amount: bad'), { key: 'amount.refused', code: 'invalid_request', detail: 'amount: bad' }],
    [
      new ApiError(400, 'invalid_request', 'fiatAmount: what arrives is below the SEPA minimum of 1.00 EUR'),
      { key: 'amount.refused', code: 'invalid_request', detail: 'fiatAmount: what arrives is below the SEPA minimum of 1.00 EUR' },
    ],
    [
      new ApiError(400, 'invalid_request', 'cryptoAmount: too small to cover the fees'),
      { key: 'amount.refused', code: 'invalid_request', detail: 'cryptoAmount: too small to cover the fees' },
    ],
    [new ApiError(422, 'requires_action', 'm'), { key: 'error.requiresAction', code: 'requires_action' }],
    [new ApiError(502, 'upstream_error', 'm'), { key: 'error.upstream', code: 'upstream_error' }],
    [new ApiError(502, 'internal', ''), { key: 'error.upstream', code: 'internal' }],
    [new ApiError(500, 'internal', ''), { key: 'error.server', code: 'internal' }],
    [new ApiError(503, 'unknown', ''), { key: 'error.server', code: 'unknown' }],
    [new ApiError(401, 'unauthorized', 'no key'), { key: 'error.unknown', code: 'unauthorized', detail: 'no key' }],
    [new RateLimitedError(1000, 'slow'), { key: 'error.busy', code: 'rate_limited' }],
  ])('maps %s', (error, problem) => {
    expect(describeError(error)).toEqual(problem)
  })

  it('maps network, shape and unknown failures', () => {
    expect(describeError(new NetworkError(new TypeError('x')))).toEqual({ key: 'error.network' })
    expect(describeError(new ResponseShapeError('/deposit/quote', 'transaction.to', 'must be an address'))).toEqual({
      key: 'error.shape',
      detail: 'transaction.to: must be an address',
    })
    expect(describeError(new Error('boom'))).toEqual({ key: 'error.unknown' })
    expect(describeError('boom')).toEqual({ key: 'error.unknown' })
  })
})

describe('send problems in each flow’s words', () => {
  it('names the chain, the token and the amount, and never falls back to a raw key', async () => {
    const { sendProblemText, sendProblemCode } = await import('../../../src/errors/words')
    const { addEnglish } = await import('../../../src/i18n/i18n')
    const { enDeposit } = await import('../../../src/i18n/en-deposit')
    const { enPayout } = await import('../../../src/i18n/en-payout')
    addEnglish(enDeposit)
    addEnglish(enPayout)
    const payout = { flow: 'payout' as const, chain: 'Base', symbol: 'EURC', amount: '1000.5', format: (v: string) => `«${v}»` }
    expect(sendProblemText({ kind: 'insufficient', balance: '3' }, payout)).toContain('«3» EURC')
    expect(sendProblemText({ kind: 'insufficient', balance: '3' }, payout)).toContain('«1000.5» EURC')
    expect(sendProblemText({ kind: 'wrongChain' }, payout)).toContain('Base')
    const deposit = { flow: 'deposit' as const, chain: 'Base', symbol: 'USDC', amount: '25' }
    expect(sendProblemText({ kind: 'wallet', problem: 'rejected' }, deposit)).toBe(enDeposit['send.rejected'])
    for (const kind of ['noAccount', 'wrongChain', 'insufficientGas', 'elsewhere', 'refused', 'spent', 'expired'] as const) {
      const problem = kind === 'refused' ? { kind, rule: 'value' } : { kind }
      expect(sendProblemText(problem as never, payout)).not.toMatch(/^payout\./)
    }
    expect(sendProblemCode({ kind: 'refused', rule: 'value' })).toBe('transfer_value')
    expect(sendProblemCode({ kind: 'wallet', problem: 'rejected' })).toBe('rejected')
  })
})
