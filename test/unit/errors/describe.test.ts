import { describe, expect, it } from 'vitest'
import { describeError } from '../../../src/errors/words'
import { ApiError, NetworkError, RateLimitedError, ResponseShapeError } from '../../../src/errors/ApiError'

describe('describeError', () => {
  it.each([
    [new ApiError(400, 'no_route', 'm'), { key: 'quote.noRoute', code: 'no_route' }],
    [new ApiError(422, 'no_route', 'm'), { key: 'quote.noRoute', code: 'no_route' }],
    [new ApiError(403, 'chain_not_allowed', 'm'), { key: 'error.chainNotAllowed', code: 'chain_not_allowed' }],
    [new ApiError(400, 'invalid_request', 'amount: bad'), { key: 'error.invalid', code: 'invalid_request', detail: 'amount: bad' }],
    [new ApiError(422, 'requires_action', 'm'), { key: 'error.requiresAction', code: 'requires_action' }],
    [new ApiError(502, 'upstream_error', 'm'), { key: 'error.upstream', code: 'upstream_error' }],
    [new ApiError(502, 'internal', ''), { key: 'error.upstream', code: 'internal' }],
    [new ApiError(500, 'internal', ''), { key: 'error.server', code: 'internal' }],
    [new ApiError(503, 'unknown', ''), { key: 'error.server', code: 'unknown' }],
    [new ApiError(401, 'unauthorized', 'no key'), { key: 'error.unknown', code: 'unauthorized', detail: 'no key' }],
    [new RateLimitedError(1000, 'slow'), { key: 'error.unknown', code: 'rate_limited', detail: 'slow' }],
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
