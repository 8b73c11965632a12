// Paying a payout by address in English: they come with the payout's later screens
// (screens/payout/ConnectScreen.tsx, FundingScreen.tsx), fetched as the flow starts, not with its first screen.
export const enPayoutByAddress = {
  'payout.byAddress': 'Send from another wallet or an exchange',
  'payout.byAddressIntro':
    'No wallet connected here? Scan the code with your wallet app, or copy the address and the amount into another wallet or an exchange. This page watches the payout and follows it once your transfer arrives.',
  'payout.byAddressReturn':
    'If the bank returns the payout, the {symbol} come back to the wallet that sent them, less the rail’s own cost. Sent from an exchange, they go back to the exchange’s address, which may not credit them to your account.',
  'payout.offeredBefore':
    'You asked to pay this payout from another wallet or an exchange. If you already sent it from another wallet or an exchange, do not send it again: this page follows it once it arrives.',
  'payout.confirmNotSent': 'I have not sent it from another wallet or an exchange',
  'payout.restartOffered':
    'If you already sent it from another wallet or an exchange, starting over stops following it here: keep this page open until it arrives. Start over only if you sent nothing.',
  'payout.restartAnyway': 'Start over anyway',
  'payout.byAddressLess': 'Sending less than {amount} {symbol} does not cancel this payout: what arrives is paid out, so less than quoted lands on the card.',
} as const

export type PayoutByAddressKey = keyof typeof enPayoutByAddress
