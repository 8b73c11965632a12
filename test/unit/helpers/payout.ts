// A payout record as the payout store keeps it (flows/payout/persisted.ts), for the review tests.
import type { PayoutRecord } from '../../../src/flows/payout/machine'

export const BUYER_WALLET = '0x1111111111111111111111111111111111111111'
export const DEPOSIT_ADDRESS = '0x2222222222222222222222222222222222222222'

export const payoutRecord = (extra: Partial<PayoutRecord> = {}): PayoutRecord => ({
  id: 'po_1',
  depositAddress: DEPOSIT_ADDRESS,
  depositAmount: '10',
  chain: 8453,
  expiresAt: '2026-11-23T13:00:00Z',
  token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  symbol: 'USDC',
  decimals: 6,
  fiatAmount: '9',
  fiatCurrency: 'EUR',
  rail: 'sepa',
  settlement: '1d',
  accountId: 'acc_1',
  wallet: BUYER_WALLET,
  createdAt: Date.now(),
  ...extra,
})
