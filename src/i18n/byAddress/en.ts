// Paying by address (deposit) and the wallet apps' own browsers, in English: loaded with their
// lazy screens (screens/deposit/ByAddressScreen.tsx, components/WalletApps.tsx), never the first load.
export const enByAddress = {
  'byAddress.heading': 'Send from another wallet or an exchange',
  'byAddress.intro':
    'Send the exact amount shown next from any wallet or exchange account. We watch the chain and follow the deposit once your transfer arrives.',
  'byAddress.receiver': 'Your address to receive {token} on {chain}',
  'byAddress.receiverHint': 'The deposit is delivered to this address.',
  'byAddress.receiverFixed': 'Delivered as {token} on {chain} to {address}, as the site set it.',
  'byAddress.receiverInvalid': 'Enter an address: 0x followed by 40 hexadecimal characters.',
  'byAddress.receiverSite': 'The deposit is paid to this site, not to an address of yours, so none is asked: it counts as your deposit on your account here.',
  'byAddress.refund':
    'If the deposit expires, the routing service refunds it automatically, but we cannot promise where the refund goes: an exchange may not credit it to your account. Keep your transaction, and contact the shop with it if the refund does not reach you.',
  'byAddress.kit':
    'This site gives the deposit address to the account you are signed in with on it and keeps it as yours: a transfer of exactly the amount shown to that address counts as your deposit, whichever wallet or exchange sends it.',
  'byAddress.kitWatch':
    'This address was given to your account on this site: a transfer of exactly this amount to it counts as your deposit here, from any wallet or exchange. If your exchange takes its fee out of the amount, add the fee, so that exactly this amount arrives.',
  'byAddress.submit': 'Show the address',
  'byAddress.loading': 'Getting the deposit address…',
  'byAddress.connectInstead': 'Connect a wallet instead',
  'byAddress.refused.approval':
    'This price needs an approval from the paying wallet, so it cannot be paid by a plain transfer. Nothing was sent. Connect a wallet to pay instead.',
  'byAddress.refused.call':
    'This price needs a contract call from the paying wallet, not a plain transfer, so it cannot be paid from another wallet or an exchange. Nothing was sent. Connect a wallet to pay instead.',
  'byAddress.refused.amount': 'The transfer in this price is not exactly the amount you asked for, so it is not offered. Nothing was sent.',
  'byAddress.refused.chain': 'This price is for another network than the one you chose, so it is not offered. Nothing was sent.',
  'byAddress.refused.spent':
    'The service gave an address that was already offered here once. An address is never offered twice: try again later, or connect a wallet.',
  'byAddress.refused.unreadable':
    'This page cannot read the network to see your transfer arrive, so paying by address is not offered here. Connect a wallet instead.',
  'byAddress.sendHeading': 'Send exactly {amount} {token}',
  'byAddress.amount': 'Amount',
  'byAddress.token': '{token} token contract',
  'byAddress.chain': 'Network',
  'byAddress.address': 'Deposit address',
  'byAddress.exact':
    'One transfer of exactly this amount of {token}, on {chain} only. Another amount or another token is not followed here, nor is a transfer on another network, which may not be recoverable.',
  'byAddress.qr': 'QR code of this payment request for a wallet app: {amount} {token} on {chain} to the deposit address',
  'byAddress.request': 'Payment request (EIP-681)',
  'byAddress.expiresIn': 'Send within {time}: the price is held until {at}.',
  'byAddress.expired':
    'This price expired at {at}: do not send to this address now. If you sent before then, keep this page open: we keep watching for your transfer.',
  'byAddress.newQuote': 'I did not send: get a new price',
  'byAddress.watching': 'Watching {chain} for your transfer… You can leave and come back to this page: the watch resumes here.',
  'byAddress.stray':
    'A transfer of {amount} {token} arrived at this address (transaction {hash}). It is not the amount asked, so it is not followed here: contact the site with this transaction.',
  'byAddress.strayToken':
    'A transfer of another token ({token}) arrived at this address (transaction {hash}). It is not followed here: contact the site with this transaction.',
  'walletApps.heading': 'Open in your wallet app',
  'walletApps.body': "Opens this same page in your wallet app's own browser, where your wallet connects.",
  'walletApps.carries':
    "The link carries this page's address as it is: the site, the amount and the site's signature, checked again there. It never carries a sign-in token: sign in there if asked.",
  'walletApps.open': 'Open in {wallet}',
} as const

export type ByAddressKey = keyof typeof enByAddress
