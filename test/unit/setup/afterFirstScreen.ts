// Imported first by the unit tests that run as a page does once its first screen is up (the others
// do without it, and without its cost: zod and every check, imported again for each test file): the idle fetch of the stored-record
// checks and the answers' schemas (kernel/firstScreen.ts) has arrived. The tests of what happens
// before then (test/unit/kernel/firstScreen.test.tsx) import fresh copies of the modules instead.
import { bankDepositSchemas } from '../../../src/api/bankDeposit'
import { cardSchemas } from '../../../src/api/card'
import { cardRateSchemas } from '../../../src/api/cardRate'
import { errorSchemas } from '../../../src/api/client'
import { depositSchemas } from '../../../src/api/deposit'
import { onboardingSchemas } from '../../../src/api/onboarding'
import { kitWords } from '../../../src/api/partnerHttp'
import { payoutSchemas } from '../../../src/api/payout'
import { referenceSchemas } from '../../../src/api/reference'
import { bankDepositChecks } from '../../../src/flows/bankDeposit/persisted'
import { cardChecks } from '../../../src/flows/card/persisted'
import { depositChecks } from '../../../src/flows/deposit/persisted'
import { onboardingChecks } from '../../../src/flows/onboarding/persisted'
import { payoutChecks } from '../../../src/flows/payout/persisted'
import { identityChecks } from '../../../src/identity/checks'
import { laterSteps } from '../../../src/screens/identity/IdentitySteps'

await Promise.all(
  [bankDepositSchemas, cardSchemas, cardRateSchemas, errorSchemas, kitWords, depositSchemas, onboardingSchemas, payoutSchemas, referenceSchemas].map((s) =>
    s.ready(),
  ),
)
await Promise.all([bankDepositChecks, cardChecks, depositChecks, onboardingChecks, payoutChecks, identityChecks].map((c) => c.load()))
// The identity steps after the wallet (fetched while the wallet step shows).
await laterSteps.load()
