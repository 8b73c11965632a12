import type * as chainActions from '../../wallet/chainActions'
import type { guardQuote, payableByAddress, understood } from './guard'

/** The deposit's wallet code: viem's actions (wallet/chainActions.ts) and the quote guard, which decodes calldata with viem. */
export type ChainActions = typeof chainActions & { guardQuote: typeof guardQuote; understood: typeof understood; payableByAddress: typeof payableByAddress }

/** Fetched once a wallet is chosen. Two chunks: the payout fetches the actions alone, without the guard. */
export const loadWalletCode = (): Promise<ChainActions> =>
  Promise.all([import('../../wallet/chainActions'), import('./guard')]).then(([actions, { guardQuote, understood, payableByAddress }]) => ({
    ...actions,
    guardQuote,
    understood,
    payableByAddress,
  }))
