// The identity steps' wallet list in English (screens/identity/WalletChoices.tsx): it comes with that
// list, fetched as the wallet step shows, not with the bank flows' first load.
export const enIdentityWallet = {
  'onboarding.connectWallet': 'Or connect the wallet that receives',
  'onboarding.noWallet': 'No wallet found in this browser. Type the address that receives instead.',
  'onboarding.walletConnecting': 'Confirm the connection in {wallet}…',
  'onboarding.walletProblem.rejected': 'The connection was declined in your wallet. You can try again, or type the address.',
  'onboarding.walletProblem.pending': 'Your wallet already has a request waiting. Open your wallet to answer it.',
  'onboarding.walletProblem.noAccount': 'Your wallet did not share an account. Try again, or type the address.',
  'onboarding.walletProblem.other': 'Your wallet could not be connected. Try again, use another wallet, or type the address.',
} as const
