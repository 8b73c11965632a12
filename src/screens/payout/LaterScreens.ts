// The payout's screens after the form, fetched while the buyer types: the first screen does not
// wait for them (the card flow's LaterScreens.ts does the same).
export { ConnectScreen } from './ConnectScreen'
export { FundingScreen } from './FundingScreen'
export { PayoutQuoteScreen } from './PayoutQuoteScreen'
export { PayoutStatusScreen } from './PayoutStatusScreen'
