import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { enBeneficiary } from '../../src/i18n/en-beneficiary'
import { enIdentityWallet } from '../../src/i18n/en-identityWallet'
import { enOnboardingLater } from '../../src/i18n/en-onboardingLater'
import { enPayoutByAddress } from '../../src/i18n/en-payoutByAddress'
import { closure, readManifest } from './bundleSizes'

// The built output to check (npm test builds dist/; WIDGET_DIST checks another build).
const DIST = process.env.WIDGET_DIST ?? 'dist'

// A lazily fetched screen's English strings must come with it in the build. Unit tests cannot see
// this: the build drops code a module runs for its own sake when the module only re-exports (so
// `addEnglish` in screens/identity/LaterSteps.tsx was gone from the bundle, and the buyer read
// "onboarding.identityHeading"), while the unit tests run the sources as written.
describe('lazy screens bring their English strings (built bundle)', () => {
  const manifest = readManifest(DIST)
  const code = (entry: string) => [...closure(manifest, entry)].map((key) => readFileSync(join(DIST, manifest[key].file), 'utf8')).join('\n')

  it.each([
    ['src/screens/identity/LaterSteps.tsx', enOnboardingLater['onboarding.identityBody']],
    ['src/screens/identity/LaterSteps.tsx', enOnboardingLater['onboarding.detailsIntro']],
    ['src/screens/onboarding/AccountScreens.tsx', enOnboardingLater['onboarding.referenceWarning']],
    ['src/screens/payout/BeneficiaryForm.tsx', enBeneficiary['payout.problem.clabeChecksum']],
    ['src/screens/payout/LaterScreens.ts', enPayoutByAddress['payout.byAddress']],
    ['src/screens/payout/LaterScreens.ts', enPayoutByAddress['payout.byAddressIntro']],
    ['src/screens/identity/WalletChoices.tsx', enIdentityWallet['onboarding.walletProblem.rejected']],
  ])('%s carries "%s"', (entry, text) => {
    expect(manifest[entry], `${entry} is a chunk of its own`).toBeDefined()
    expect(code(entry).includes(text), `the build of ${entry} and what it imports lacks its strings`).toBe(true)
  })
})
