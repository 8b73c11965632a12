// The bank flows' first-screen strings in English (the wallet step, field errors, the bank's
// problems), loaded with the flow (see en.ts). The later steps' come with them (en-fiatLater.ts).
export const enFiat = {
  'fiat.walletHeading': 'Where should your stablecoins go?',
  'fiat.wallet': 'Wallet address',
  'fiat.walletHint': 'The EVM address (0x…) that receives the stablecoins from every transfer.',
  'fiat.next': 'Continue',
  'field.required': 'This is required.',
  'field.address': 'This is not a wallet address: it must start with 0x followed by 40 letters or digits.',
  'field.country': 'Choose a country from the list.',
  'field.phone': 'Enter the number in international format: + and the country code, then the number (7 to 15 digits).',
  'field.email': 'This is not an email address.',
  'field.server': 'The bank did not accept this; see the message below.',
  'fiat.partnerError': 'The bank said: {detail}',
  'fiat.kycPending': 'Your identity check is still being reviewed. This usually takes a few minutes; we check again on our own. You can close this page and come back.',
} as const
