// The identity steps after the wallet: fetched while the wallet step shows, not with the bank flows'
// first screen (issue 19). Each screen adds its English strings itself (en-onboardingLater.ts): a call
// here would be dropped from the build, which keeps only what this module re-exports.
export { IdentityStep } from './IdentityStep'
export { DetailsScreen } from './DetailsScreen'
