// The virtual account's door for its screens (src/screens/onboarding/): what they may read of the flow.
export type { OnboardingEvent, OnboardingState } from './machine'
