// The bank flows' first-screen strings in English (the wallet step and its field errors, the bank's
// problems), loaded with the flow (see en.ts). The later steps' come with them (en-fiatLater.ts).
export const enFiat = {
  'fiat.walletHeading': 'Where should your stablecoins go?',
  'fiat.wallet': 'Wallet address',
  'fiat.walletHint': 'The EVM address (0x…) that receives the stablecoins from every transfer.',
  'fiat.next': 'Continue',
  'field.required': 'This is required.',
  'field.address': 'This is not a wallet address: it must start with 0x followed by 40 letters or digits.',
  'fiat.partnerError': 'The bank said: {detail}',
  'fiat.kycPending': 'Your identity check is still being reviewed. This usually takes a few minutes; we check again on our own. You can close this page and come back.',
} as const
