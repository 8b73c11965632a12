// The card flow's screens after the form, fetched while the buyer types: the first screen does not
// wait for them (issue 19).
export { CardQuoteScreen } from './CardQuoteScreen'
export { CardRedirectScreen } from './CardRedirectScreen'
export { CardStatusScreen } from './CardStatusScreen'
