// The bank payout: the payout flow (Payouts.tsx) with a beneficiary, and the bank's calls.
import { payoutSchemas } from '../../api/payout'
import { Notice } from '../../components/Notice'
import { t } from '../../i18n/i18n'
import { lazyPart, useLazyPart } from '../../kernel/lazyPart'
import type { BeneficiaryProps } from '../../screens/payout/BeneficiaryForm'
import { beneficiaryStep } from './beneficiary'
import { type PayoutKind, type PayoutProps, Payouts } from './Payouts'

// The beneficiary step's form, schemas' words and checks' words are a chunk of their own, fetched as
// the flow starts (the first screen does not wait for them) and shown once the step comes.
const form = lazyPart(() => import('../../screens/payout/BeneficiaryForm'))
// A failed fetch is tried again when the step shows.
form.load().catch(() => {})

function BeneficiaryScreen(props: BeneficiaryProps) {
  const part = useLazyPart(form, true)
  if (part === 'failed') return <Notice tone="error">{t('app.loadFailed')}</Notice>
  if (!part) return <p role="status">{t('app.loading')}</p>
  return <part.BeneficiaryForm {...props} />
}

const bank: PayoutKind = {
  name: 'payout',
  destination: beneficiaryStep,
  calls: lazyPart(() => import('./bank').then(({ bankCalls }) => ({ calls: bankCalls }))),
  DestinationScreen: ({ state, dispatch, services }) =>
    state.tag === 'beneficiary' ? <BeneficiaryScreen state={state} dispatch={dispatch} locale={services.config.locale} /> : <></>,
  currencies: (config) => config.fiatCurrencies,
  schemas: payoutSchemas,
}

export default function PayoutFlow(props: PayoutProps) {
  return <Payouts {...props} kind={bank} />
}
