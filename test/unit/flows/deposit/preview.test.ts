import { describe, expect, it } from 'vitest'
import { type Expected, about, isNativeToken, judgeOutflow } from '../../../../src/flows/deposit/preview'

const USDC = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const WETH = '0x4200000000000000000000000000000000000006'
const ETH = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'
const expected: Expected = { token: USDC, amountIn: 25_000_000n, decimals: 6, symbol: 'USDC', native: false, value: 0n, feeSymbol: 'ETH' }
const fee = 210_000_000_000_000n // 0.00021 ETH

describe('judgeOutflow: only amountIn of the source token (and gas) may leave the wallet', () => {
  it('exactly amountIn of the source token: the preview says so, with the fee', () => {
    const verdict = judgeOutflow([{ token: USDC.toLowerCase(), diff: -25_000_000n, symbol: 'USDC', decimals: 6 }], expected, fee)
    expect(verdict).toEqual({
      ok: true,
      preview: { kind: 'ready', outflow: [{ amount: '25', symbol: 'USDC' }], fee: '0.00021', feeSymbol: 'ETH', safe: true },
    })
  })

  it('gas taken from the native balance is not an outflow of its own', () => {
    const verdict = judgeOutflow(
      [
        { token: USDC, diff: -25_000_000n },
        { token: ETH, diff: -fee },
      ],
      expected,
      fee,
    )
    expect(verdict.ok).toBe(true)
  })

  it.each([
    ['twice the amount', [{ token: USDC, diff: -50_000_000n }], '50 USDC'],
    ['one base unit more', [{ token: USDC, diff: -25_000_001n }], '25.000001 USDC'],
    ['less than the amount (the deposit would be short)', [{ token: USDC, diff: -1n }], '0.000001 USDC'],
    ['nothing at all', [], '0 USDC'],
    [
      'another token besides',
      [
        { token: USDC, diff: -25_000_000n },
        { token: WETH, diff: -(10n ** 18n), symbol: 'WETH', decimals: 18 },
      ],
      '25 USDC + 1 WETH',
    ],
    [
      'native currency beyond the fee',
      [
        { token: USDC, diff: -25_000_000n },
        { token: ETH, diff: -(10n ** 17n) },
      ],
      '25 USDC + 0.1 ETH',
    ],
  ])('%s is refused, saying what would leave', (_name, changes, taken) => {
    expect(judgeOutflow(changes, expected, fee)).toEqual({
      ok: false,
      rejection: { rule: 'simulation.outflow', taken, asked: '25 USDC' },
    })
  })

  it('the one expected approval (source token, spender, exactly amountIn) or a spent-down 0 passes; any other grant is refused', () => {
    const DEPOSITOR = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0'
    const withSpender = { ...expected, spender: DEPOSITOR }
    const leaves = { token: USDC, diff: -25_000_000n }
    const grant = (token: string, spender: string, amount: bigint, all = false) => ({
      token: token.toLowerCase(),
      diff: 0n,
      grant: { spender: spender.toLowerCase(), amount, all },
    })
    expect(judgeOutflow([leaves, grant(USDC, DEPOSITOR, 25_000_000n)], withSpender, fee).ok).toBe(true)
    expect(judgeOutflow([leaves, grant(USDC, DEPOSITOR, 0n)], withSpender, fee).ok).toBe(true)
    expect(judgeOutflow([leaves, grant(USDC, DEPOSITOR, 25_000_001n)], withSpender, fee).ok).toBe(false)
    expect(judgeOutflow([leaves, grant(USDC, WETH, 25_000_000n)], withSpender, fee).ok).toBe(false)
    expect(judgeOutflow([leaves, grant(WETH, DEPOSITOR, 25_000_000n)], withSpender, fee).ok).toBe(false)
    expect(judgeOutflow([leaves, grant(USDC, DEPOSITOR, 1n, true)], withSpender, fee).ok).toBe(false)
    // Without an approval in the quote, no grant is expected at all.
    expect(judgeOutflow([leaves, grant(USDC, DEPOSITOR, 25_000_000n)], expected, fee).ok).toBe(false)
  })

  it('what the wallet receives is not an outflow', () => {
    const verdict = judgeOutflow(
      [
        { token: USDC, diff: -25_000_000n },
        { token: WETH, diff: 5n },
      ],
      expected,
      fee,
    )
    expect(verdict.ok).toBe(true)
  })

  it('a native source: its value is the amount', () => {
    const native: Expected = { ...expected, token: ETH, amountIn: 10n ** 17n, decimals: 18, symbol: 'ETH', native: true, value: 10n ** 17n }
    expect(judgeOutflow([{ token: ETH.toLowerCase(), diff: -(10n ** 17n) }], native, fee).ok).toBe(true)
    expect(judgeOutflow([{ token: ETH, diff: -(2n * 10n ** 17n) }], native, fee).ok).toBe(false)
  })
})

describe('about: a fee rounded up to two significant digits', () => {
  it.each([
    [0n, '0'],
    [1n, '0.000000000000000001'],
    [210_000_000_000_000n, '0.00021'],
    [211_000_000_000_001n, '0.00022'],
    [123_456_789_000_000_000n, '0.13'],
  ])('%s wei → %s', (wei, text) => expect(about(wei)).toBe(text))
})

it('isNativeToken knows both spellings of the native currency', () => {
  expect(isNativeToken(ETH)).toBe(true)
  expect(isNativeToken('0x0000000000000000000000000000000000000000')).toBe(true)
  expect(isNativeToken(USDC)).toBe(false)
})
