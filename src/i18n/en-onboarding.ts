// The bank flows' first-screen strings in English (the wallet step and its field errors, the bank's
// problems), loaded with the flow (see en.ts). The later steps' come with them (en-onboardingLater.ts).
export const enOnboarding = {
  'onboarding.walletHeading': 'Where should your stablecoins go?',
  'onboarding.wallet': 'Wallet address',
  'onboarding.walletHint': 'The EVM address (0x…) that receives the stablecoins from every transfer.',
  'onboarding.next': 'Continue',
  'onboarding.connectWallet': 'Connect the wallet that receives',
  'onboarding.orType': 'Or type its address',
  'onboarding.noWallet': 'No wallet found in this browser. Type the address that receives instead.',
  'onboarding.walletConnecting': 'Confirm the connection in {wallet}…',
  'onboarding.walletProblem.rejected': 'The connection was declined in your wallet. You can try again, or type the address.',
  'onboarding.walletProblem.pending': 'Your wallet already has a request waiting. Open your wallet to answer it.',
  'onboarding.walletProblem.noAccount': 'Your wallet did not share an account. Try again, or type the address.',
  'onboarding.walletProblem.other': 'Your wallet could not be connected. Try again, use another wallet, or type the address.',
  'onboarding.walletProblem.ended': 'Your wallet ended the connection. Connect it again, or type the address.',
  'field.required': 'This is required.',
  'field.address': 'This is not a wallet address: it must start with 0x followed by 40 letters or digits.',
  'onboarding.partnerError': 'The bank said: {detail}',
  'onboarding.kycPending': 'Your identity check is still being reviewed. We check again on our own; you can close this page and come back.',
} as const
