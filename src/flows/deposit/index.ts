// The deposit's door for its screens (src/screens/deposit/): what they may read of the flow. Types
// are erased; the values are the pure ones a screen draws with (no effect, no wallet code).
export type { DepositEvent, DepositState, Notice, Preview, SendStep } from './machine'
export { NO_SIGN_IN, unrecorded } from './machine'
export { noticeContext, noticeText } from './notice'
export { asksWalletLink } from './walletCheck'
