// A payout a buyer left unfinished on a shared device, at its funding step: 480 USDC on Base owed
// to `depositAddress` for 440 EUR over SEPA Instant, created at `now` and valid for an hour. The
// attack tests write it where the next buyer's page looks (without, or with, its owner).
export const leftPayout = (depositAddress: string, now: number) => ({
  id: 'bp_A',
  depositAddress,
  depositAmount: '480',
  chain: 8453,
  expiresAt: new Date(now + 3_600_000).toISOString(),
  token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  symbol: 'USDC',
  decimals: 6,
  fiatAmount: '440.00',
  fiatCurrency: 'EUR',
  rail: 'sepa_instant',
  settlement: 'instant',
  createdAt: now,
})
