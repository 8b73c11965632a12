// The bank payout: the payout flow (Payouts.tsx) with a beneficiary, and the bank's calls.
import { payoutSchemas } from '../../api/payout'
import { lazyPart } from '../../kernel/lazyPart'
import { BeneficiaryScreen } from '../../screens/payout/BeneficiaryScreen'
import { beneficiaryStep } from './beneficiaryStep'
import { type PayoutKind, type PayoutProps, Payouts } from './Payouts'

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
