// @vitest-environment happy-dom
// Issue 28, item 9: the details form asks no occupation. The contract names only the default of
// `individual.category` (`self_employed`); values it never names could be refused by the service,
// which would spend the buyer's single-use code for nothing. So the field is omitted, and its words
// are gone from every catalog.
import { cleanup, render, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { emptyApplicant } from '../../../../src/identity/machine'
import de from '../../../../src/i18n/de'
import { enOnboardingLater } from '../../../../src/i18n/en-onboardingLater'
import es from '../../../../src/i18n/es'
import fr from '../../../../src/i18n/fr'
import ptBR from '../../../../src/i18n/pt-BR'
import { DetailsScreen } from '../../../../src/screens/identity/DetailsScreen'

afterEach(cleanup)

describe('no occupation on the details form', () => {
  it('the form has no category control', () => {
    const { container } = render(
      <DetailsScreen
        state={{ tag: 'details', form: { ...emptyApplicant, wallet: '0x1111111111111111111111111111111111111111' }, authCode: 'c', errors: {}, work: 'idle' }}
        dispatch={() => {}}
        locale="en"
      />,
    )
    expect(screen.getByRole('heading', { level: 1 })).toBeTruthy()
    expect(container.querySelector('#category')).toBeNull()
    expect(screen.queryByLabelText('Occupation')).toBeNull()
    expect(Object.keys(emptyApplicant)).not.toContain('category')
  })

  it.each([
    ['en', enOnboardingLater],
    ['de', de],
    ['es', es],
    ['fr', fr],
    ['pt-BR', ptBR],
  ])('the %s catalog has no words for it', (_locale, catalog) => {
    expect(Object.keys(catalog).filter((key) => key.startsWith('onboarding.category'))).toEqual([])
  })
})
