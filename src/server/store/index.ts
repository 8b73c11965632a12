export { openPaymentStore, type PaymentStoreOptions } from './openPaymentStore'
export { type KnownBuyer, type ListedPayment, type NewPayment, type PaymentStore, type Usage, type WalletChallenge } from './paymentStore'
export { cryptoDepositId, paymentKinds, type PaymentKind } from './kinds'
export type { PgPool } from './sql'
