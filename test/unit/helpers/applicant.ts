// The buyer who asks for an account in the identity and onboarding tests: every field of the
// details form filled, for the wallet anvil's account 1 holds.
import { type Applicant, emptyApplicant } from '../../../src/identity/machine'

export const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

export const filledApplicant: Applicant = {
  ...emptyApplicant,
  wallet: WALLET,
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '+49 151 23456789',
  nationality: 'DE',
  country: 'DE',
}
