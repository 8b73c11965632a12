import { describe, expect, it } from 'vitest'
import { walletProblemOf } from '../../../src/errors/WalletError'
import { WidgetError } from '../../../src/errors/WidgetError'

const coded = (code: unknown, message = 'rpc') => Object.assign(new Error(message), { code })

describe('walletProblemOf', () => {
  it('finds code 4001 nested two levels deep', () => {
    const error = new WidgetError('outer', { cause: new Error('middle', { cause: coded(4001) }) })
    expect(walletProblemOf(error)).toBe('rejected')
  })

  it.each([
    [4001, 'rejected'],
    [-32002, 'pending'],
    [4902, 'unsupportedChain'],
    [4900, 'disconnected'],
    [4901, 'disconnected'],
    [4100, 'disconnected'],
    [-32603, 'unknown'],
  ])('maps code %i to %s', (code, problem) => {
    expect(walletProblemOf(coded(code))).toBe(problem)
    expect(walletProblemOf(new Error('wrap', { cause: coded(code) }))).toBe(problem)
  })

  it('takes the outermost numeric code', () => {
    const error = Object.assign(new Error('outer', { cause: coded(4001) }), { code: -32002 })
    expect(walletProblemOf(error)).toBe('pending')
  })

  it('skips non-numeric codes on the way down', () => {
    const error = Object.assign(new Error('outer', { cause: coded(4902) }), { code: 'ACTION_REJECTED' })
    expect(walletProblemOf(error)).toBe('unsupportedChain')
  })

  it.each([
    ['an error without a code', new Error('plain')],
    ['a chain without a code', new Error('a', { cause: new Error('b') })],
    ['a string', 'oops'],
    ['null', null],
    ['undefined', undefined],
  ])('is unknown for %s', (_, error) => {
    expect(walletProblemOf(error)).toBe('unknown')
  })
})
