// Paying by address and the wallet apps' own browsers, each fetched when a screen needs it (a payout
// without a wallet connected, a phone without one), never with a flow's first load: they bring the
// QR encoder (uqr) and their words (i18n/byAddress).
import { lazyPart } from '../kernel/lazyPart'

export const payByAddressPart = lazyPart(() => import('./PayByAddress'))
export const walletAppsPart = lazyPart(() => import('./WalletApps').then((m) => m.default))
