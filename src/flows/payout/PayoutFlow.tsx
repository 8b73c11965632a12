import { useEffect, useRef } from 'preact/hooks'
import { enLimits } from '../../i18n/shared/en-limits'
import { enPayout } from '../../i18n/en-payout'
import { addEnglish } from '../../i18n/i18n'
import { identityStart, useIdentitySync } from '../../identity/start'
import { isIdentityState } from '../../identity/machine'
import { systemClock } from '../../kernel/types'
import { useFlowMachine } from '../../kernel/useFlowMachine'
import { decimalMarkOf, localeAmount } from '../../lib/decimal'
import { IdentitySteps } from '../../screens/identity/IdentitySteps'
import { BeneficiaryScreen } from '../../screens/payout/BeneficiaryScreen'
import { FundingScreen } from '../../screens/payout/FundingScreen'
import { PayoutFormScreen } from '../../screens/payout/PayoutFormScreen'
import { PayoutQuoteScreen } from '../../screens/payout/PayoutQuoteScreen'
import { PayoutStatusScreen } from '../../screens/payout/PayoutStatusScreen'
import type { Services } from '../../services'
import { partnerStorage } from '../../storage/flowStore'
import { payoutEvents } from './hostEvents'
import { type Context, type PayoutEvent, type PayoutState, initialState, stepOf, transition } from './machine'
import { payoutSourceOf } from './source'
import { errorSchemas } from '../../api/client'
import { onboardingSchemas } from '../../api/onboarding'
import { payoutSchemas } from '../../api/payout'
import { referenceSchemas } from '../../api/reference'
import { identityChecks, identityKeys } from '../../identity/checks'
import { FirstScreen } from '../../components/FirstScreen'
import { flowKey } from '../../storage/storedCheck'
import { ConnectScreen } from '../../screens/payout/ConnectScreen'
import { anyStored } from '../../storage/storedCheck'
import { payoutChecks, payoutKeys, pendingStore, payoutStore, referenceStore, spentAddresses } from './persisted'
import { lazyEffects, lazyPart } from '../../kernel/lazyPart'
import { loadWalletCode } from './walletCode'

// The I/O is fetched as the flow starts: the first screen works before it arrives (what it asks for
// meanwhile starts once it is here).
const payoutEffects = lazyPart(() =>
  Promise.all([import('./effects'), import('../../api/partnerHttp'), import('../../wallet/eip6963')]).then(([effects, http, wallets]) => ({ ...effects, ...http, ...wallets })),
)

// This flow's English strings (and the rails' limits lines) come with its chunk, not with the first load.
addEnglish({ ...enPayout, ...enLimits })

const PENDING_KEY = flowKey('payout-pending')

export default function PayoutFlow(props: { services: Services; onStep: (step: number, of: number) => void }) {
  return (
    <FirstScreen checks={[payoutChecks, identityChecks]} stored={() => anyStored(partnerStorage(props.services.config), [...payoutKeys, ...identityKeys.local]) || anyStored(partnerStorage(props.services.config, true), [...identityKeys.session, PENDING_KEY])} later={[payoutSchemas, referenceSchemas, onboardingSchemas, errorSchemas, props.services.limiter]}>
      {() => <Payout {...props} />}
    </FirstScreen>
  )
}

function Payout({ services, onStep }: { services: Services; onStep: (step: number, of: number) => void }) {
  const { config } = services
  const source = payoutSourceOf(config)
  const session = partnerStorage(config, true)
  const [state, dispatch] = useFlowMachine<PayoutState, PayoutEvent>(() => {
    const local = partnerStorage(config)
    const store = payoutStore(local)
    const start = identityStart(config, local, session)
    const pending = pendingStore(session)
    const ctx: Context = {
      source,
      linkWallet: config.walletAddress,
      get decimalMark() {
        return decimalMarkOf(config.locale)
      },
      emptyForm: () => ({
        kind: 'fiat',
        // Options carry amounts with a dot; the field shows them as the buyer types in this locale.
        amount: config.amount ? localeAmount(config.amount, decimalMarkOf(config.locale)) : '',
        currency: config.fiatCurrencies[0],
        country: regionOf(config.locale),
        rail: '',
      }),
    }
    return {
      // Only this buyer's payout (start.account is already refused under a link signed for another
      // wallet); another buyer's record stays stored for them, never shown here.
      initial: initialState({ record: start.account && store.load(start.account, config.walletAddress), buyer: start.account, identity: start.identity, pending: pending.take() }, ctx),
      transition: (state, event) => transition(state, event, ctx),
      observe: (prev, next) => {
        for (const e of payoutEvents(prev, next, config)) services.emit(e.name, e.payload as never)
      },
      effects: (dispatch) =>
        lazyEffects(payoutEffects, ({ createPayoutEffects, createPartnerHttp, discoverWallets, providerOf }) =>
          createPayoutEffects(
            {
              config,
              partner: createPartnerHttp({ base: config.partnerBase ?? '', token: config.partnerToken, cookies: config.partnerCookies }),
              source,
              store,
              references: referenceStore(local),
              spent: spentAddresses(local),
              pending,
              clock: systemClock,
              identity: { api: services.api, accounts: start.accounts, usedCodes: start.usedCodes },
              // viem arrives with the funding step, not before.
              loadChainActions: loadWalletCode,
              discover: (onChange) => discoverWallets(window, onChange),
              providerOf,
            },
            dispatch,
          ),
        ),
    }
  }, [services])

  // The identity steps are part of this payout when the buyer was not known at the start (the price is anonymous).
  const identityPath = useRef(isIdentityState(state) || !('buyer' in state && state.buyer))
  if (isIdentityState(state)) identityPath.current = true
  // A buyer reused from storage (not verified in this visit): the screens say whose account it is and offer "Not you?".
  const stored = !identityPath.current
  const { step, of } = stepOf(state, identityPath.current)
  useEffect(() => onStep(step, of), [step, of])
  useIdentitySync(state, dispatch, services, session)

  if (isIdentityState(state)) {
    return <IdentitySteps state={state} dispatch={dispatch} identityUrl={config.identityUrl ?? ''} flow="payout" locale={config.locale} tier={state.pending?.tier} />
  }
  switch (state.tag) {
    case 'form':
    case 'quoting':
      return <PayoutFormScreen state={state} dispatch={dispatch} source={source} currencies={config.fiatCurrencies} locale={config.locale} notYou={stored} />
    case 'quote':
      return <PayoutQuoteScreen state={state} dispatch={dispatch} source={source} locale={config.locale} />
    case 'connect':
      return <ConnectScreen state={state} dispatch={dispatch} source={source} config={config} />
    case 'beneficiary':
      return <BeneficiaryScreen state={state} dispatch={dispatch} locale={config.locale} />
    case 'funding':
      return <FundingScreen state={state} dispatch={dispatch} config={config} notYou={stored} />
    case 'tracking':
    case 'result':
      return <PayoutStatusScreen state={state} dispatch={dispatch} config={config} />
  }
}

/** "de-DE" → "DE"; a language alone names no country. */
function regionOf(locale: string): string {
  try {
    return new Intl.Locale(locale).region ?? ''
  } catch {
    return ''
  }
}
