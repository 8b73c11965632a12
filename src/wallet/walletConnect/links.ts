// Links that open a phone's wallet with the pairing URI, for a buyer on the phone itself (the QR
// code is for another device). Each wallet's universal link takes the `wc:` URI percent-encoded in
// `uri`; the last entry is the URI itself, which the phone hands to any wallet registered for `wc:`.
//
// Coinbase Wallet (now the Base app): go.cb-w.com is the domain of Coinbase's documented deep links
// (go.cb-w.com/dapp?cb_url=…); its /wc?uri= path is what dapps use for WalletConnect, not
// documented by Coinbase, and Reown's AppKit connects Coinbase through Coinbase's own SDK rather
// than WalletConnect. Read 2026-11-27, not tried on a phone: the QR code and the `wc:` link remain.

export type WalletLink = { name: string; href: string }

const UNIVERSAL: Array<[name: string, base: string]> = [
  ['MetaMask', 'https://metamask.app.link/wc'],
  ['Rainbow', 'https://rnbwapp.com/wc'],
  ['Trust Wallet', 'https://link.trustwallet.com/wc'],
  ['Coinbase Wallet', 'https://go.cb-w.com/wc'],
]

/** The wallets' links for a `wc:` pairing URI; none for anything else. */
export function walletLinks(uri: string): WalletLink[] {
  if (!/^wc:[^\s]+$/.test(uri)) return []
  const encoded = encodeURIComponent(uri)
  return [...UNIVERSAL.map(([name, base]) => ({ name, href: `${base}?uri=${encoded}` })), { name: 'Other wallet', href: uri }]
}
