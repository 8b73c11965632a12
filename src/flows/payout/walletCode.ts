import type * as chainActions from '../../wallet/chainActions'

/** The payout's wallet code: the viem actions its funding step calls (wallet/chainActions.ts). */
export type ChainActions = Pick<typeof chainActions, 'connect' | 'currentChainId' | 'ensureChain' | 'readClient' | 'tokenBalance' | 'nativeBalance' | 'send'>

/** Fetched with the funding step, not before: the actions alone, without the deposit's guard. */
export const loadWalletCode = (): Promise<ChainActions> => import('../../wallet/chainActions')
