// Links that open a phone's wallet with the pairing URI, for a buyer on the phone itself (the QR
// code is for another device). Each wallet's own scheme takes the `wc:` URI percent-encoded in
// `uri` (`<scheme>://wc?uri=…`, the form Reown's wallet registry lists as each wallet's native link);
// the last entry is the URI itself, which the phone hands to any wallet registered for `wc:`.
//
// Not the wallets' universal links (https://metamask.app.link/wc?uri=…): where the app is missing,
// a universal link opens the wallet maker's web page, and its server would log the pairing's
// symKey. The pairing URI is the buyer's alone (SECURITY.md), so it only goes to an app on the
// phone itself; a phone without the app opens nothing, and the QR code and copy button remain.
// Read 2026-11-28 (Reown's registry, MetaMask's and Trust's deep-link docs); not tried on a phone.

export type WalletLink = { name: string; href: string }

const NATIVE: Array<[name: string, base: string]> = [
  ['MetaMask', 'metamask://wc'],
  ['Rainbow', 'rainbow://wc'],
  ['Trust Wallet', 'trust://wc'],
  ['Coinbase Wallet', 'cbwallet://wc'],
]

/** The wallets' links for a `wc:` pairing URI; none for anything else. */
export function walletLinks(uri: string): WalletLink[] {
  if (!/^wc:[^\s]+$/.test(uri)) return []
  const encoded = encodeURIComponent(uri)
  return [...NATIVE.map(([name, base]) => ({ name, href: `${base}?uri=${encoded}` })), { name: 'Other wallet', href: uri }]
}
