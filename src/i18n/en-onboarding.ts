// The bank flows' first-screen strings in English (the wallet step and its field errors, the bank's
// problems), loaded with the flow (see en.ts). The later steps' come with them (en-onboardingLater.ts).
export const enOnboarding = {
  'onboarding.walletHeading': 'Where should your stablecoins go?',
  'onboarding.wallet': 'Wallet address',
  'onboarding.walletHint': 'The EVM address (0x…) that receives the stablecoins from every transfer.',
  'onboarding.next': 'Continue',
  'field.required': 'This is required.',
  'field.address': 'This is not a wallet address: it must start with 0x followed by 40 letters or digits.',
  'onboarding.partnerError': 'The bank said: {detail}',
  'onboarding.kycPending': 'Your identity check is still being reviewed. We check again on our own; you can close this page and come back.',
} as const
