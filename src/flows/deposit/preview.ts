// What the simulation says leaves the wallet, held against what the buyer asked for. Pure: the
// simulation itself runs in the wallet code; this judges its asset changes.
import { fromBaseUnits } from '../../lib/decimal'
import type { Preview, Rejection } from './machine'

export type AssetChange = {
  token: string
  diff: bigint
  symbol?: string
  decimals?: number
  /** An approval (or operator grant, `all`) the buyer's account gave during the simulation. */
  grant?: { spender: string; amount: bigint; all: boolean }
}

export type Expected = {
  /** The source token, the amount in its base units, and how to name it. */
  token: string
  amountIn: bigint
  decimals: number
  symbol: string
  native: boolean
  /** The deposit's native value in wei (0 for an ERC-20 source). */
  value: bigint
  feeSymbol: string
  /** The one approval the deposit asks for (of amountIn of the source token), when it asks one. */
  spender?: string
}

const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

/** A source "token" that is the chain's own currency (no approval, paid as the value). */
export const isNativeToken = (token: string) => [ETH, '0x0000000000000000000000000000000000000000'].includes(token.toLowerCase())

/** `ready` with what leaves the wallet, or the rejection when it is anything but amountIn of the source token. */
export function judgeOutflow(
  changes: AssetChange[],
  expected: Expected,
  feeWei?: bigint,
): { ok: true; preview: Preview } | { ok: false; rejection: Rejection } {
  const sourceKey = expected.native ? ETH : expected.token.toLowerCase()
  const losses = changes.filter((c) => c.diff < 0n)
  const sourceLoss = -(changes.find((c) => c.token.toLowerCase() === sourceKey)?.diff ?? 0n)
  // Gas is paid in the native currency: on an ERC-20 deposit, the native change may only be the value (0).
  const nativeLoss = expected.native ? 0n : -(changes.find((c) => c.token.toLowerCase() === ETH)?.diff ?? 0n)
  const others = losses.filter((c) => c.token.toLowerCase() !== sourceKey && c.token.toLowerCase() !== ETH)
  const nativeTooMuch = nativeLoss > expected.value + (feeWei ?? 0n)
  // Any grant over the buyer's assets but the expected approval (or an allowance spent down to 0).
  const grants = changes.filter(
    (c) =>
      c.grant &&
      !(
        !c.grant.all &&
        !expected.native &&
        c.token.toLowerCase() === sourceKey &&
        !!expected.spender &&
        c.grant.spender.toLowerCase() === expected.spender.toLowerCase() &&
        (c.grant.amount === expected.amountIn || c.grant.amount === 0n)
      ),
  )
  if (sourceLoss !== expected.amountIn || others.length > 0 || nativeTooMuch || grants.length > 0) {
    const taken = [`${fromBaseUnits(sourceLoss > 0n ? sourceLoss : 0n, expected.decimals)} ${expected.symbol}`]
    for (const c of others) taken.push(`${c.decimals === undefined ? `${-c.diff} units of` : fromBaseUnits(-c.diff, c.decimals)} ${c.symbol ?? c.token}`)
    if (nativeTooMuch) taken.push(`${fromBaseUnits(nativeLoss, 18)} ${expected.feeSymbol}`)
    for (const c of grants) taken.push(`a permission over ${c.grant?.all ? 'all' : 'your'} ${c.symbol ?? c.token} for ${c.grant?.spender}`)
    return {
      ok: false,
      rejection: { rule: 'simulation.outflow', taken: taken.join(' + '), asked: `${fromBaseUnits(expected.amountIn, expected.decimals)} ${expected.symbol}` },
    }
  }
  return { ok: true, preview: previewOf(expected, feeWei) }
}

/** The guard-checked amount and the fee; `safe` unless only estimated for a quote the guard does not fully understand. */
export function previewOf(expected: Expected, feeWei?: bigint, safe = true): Preview {
  return {
    kind: 'ready',
    safe,
    outflow: [{ amount: fromBaseUnits(expected.amountIn, expected.decimals), symbol: expected.symbol }],
    fee: feeWei === undefined ? undefined : about(feeWei),
    feeSymbol: expected.feeSymbol,
  }
}

/** Wei as an amount of the native currency, rounded up to two significant digits ("about"). */
export function about(wei: bigint): string {
  if (wei <= 0n) return '0'
  const digits = wei.toString().length
  const drop = digits > 2 ? BigInt(digits - 2) : 0n
  const step = 10n ** drop
  const rounded = ((wei + step - 1n) / step) * step
  return fromBaseUnits(rounded, 18)
}
