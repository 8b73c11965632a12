// WalletConnect's words in English: they come with its module (wallet/walletConnectWallet.tsx), only
// where the partner offers it.
export const enWalletConnect = {
  'wc.name': 'WalletConnect (a wallet on your phone)',
  'wc.title': 'Connect a wallet on your phone',
  'wc.preparing': 'Preparing the pairing code…',
  'wc.scan': 'Scan this code with your wallet app (WalletConnect), or copy the link into it.',
  'wc.onPhone': 'On this phone? Open your wallet app:',
  'wc.otherWallet': 'Another wallet app',
  'wc.qr': 'WalletConnect pairing code',
  'wc.link': 'Pairing link',
  'wc.waiting': 'Waiting for you to approve in your wallet app…',
  'wc.cancel': 'Cancel',
  // Said only of a WalletConnect session (its Disconnect, a session the phone ended).
  'wallet.problem.ended': 'Your wallet ended the connection. Connect it again to continue.',
  'quote.connectAgain': 'Connect again',
  'form.disconnect': 'Disconnect',
  'payout.wallet.ended': 'Your wallet ended the connection. Connect it again to continue.',
  'onboarding.walletProblem.ended': 'Your wallet ended the connection. Connect it again, or type the address.',
} as const

export type WalletConnectKey = keyof typeof enWalletConnect
