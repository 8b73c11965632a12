import { useEffect, useMemo, useRef } from 'preact/hooks'
import { enLimits } from '../../i18n/shared/en-limits'
import { enPayout } from '../../i18n/en-payout'
import { addEnglish } from '../../i18n/i18n'
import { identityStart, useIdentitySync } from '../../identity/start'
import { type IdentityEvent, isIdentityState } from '../../identity/machine'
import { systemClock } from '../../kernel/types'
import { type FlowParts, useFlowMachine } from '../../kernel/useFlowMachine'
import { decimalMarkOf, localeAmount } from '../../lib/decimal'
import { IdentitySteps } from '../../screens/identity/IdentitySteps'
import { PayoutFormScreen } from '../../screens/payout/PayoutFormScreen'
import type { Services } from '../../services'
import { partnerStorage } from '../../storage/flowStore'
import type { CardReturn, Source } from './base'
import type { DestinationEvent, DestinationState, DestinationStep } from './destination'
import type { FundingEvent } from './funding'
import { type Context, type PayoutEvent, type PayoutState, initialState, transition } from './machine'
import { keptSteps, stepOf, stepsAfter, stepsFrom } from './steps'
import type { JSX } from 'preact'
import type { WidgetConfig } from '../../config/config'
import type { PayoutCalls } from './context'
import { payoutSourceOf } from './source'
import { errorSchemas } from '../../api/client'
import { onboardingSchemas } from '../../api/onboarding'
import { referenceSchemas } from '../../api/reference'
import { identityChecks, identityKeys } from '../../identity/checks'
import { FirstScreen } from '../../components/FirstScreen'
import { anyStored, flowKey } from '../../storage/storedCheck'
import { type PayoutName, keysOf, payoutChecks, pendingStore, payoutStore, referenceStore, spentAddresses } from './persisted'
import { stepsStore } from './stepsStore'
import { type LazyPart, lazyObserver, lazyPart, useLazyPart } from '../../kernel/lazyPart'
import { defineFlow } from '../../kernel/defineFlow'
import { Notice } from '../../components/Notice'
import { t } from '../../i18n/i18n'
import { loadWalletCode } from './walletCode'
import { byAddressOwner } from './owner'

// The I/O is fetched as the flow starts: the first screen works before it arrives (what it asks for
// meanwhile starts once it is here). Each payout's own calls (bank.ts, card.ts) come with its entry.
const payoutEffects = lazyPart(() =>
  Promise.all([import('./effects'), import('../../wallet/eip6963')]).then(([effects, wallets]) => ({ ...effects, ...wallets })),
)

/** The screens after the form, fetched from the first screen on (a resumed payout asks for them at once). */
const laterScreens = lazyPart(() => import('../../screens/payout/LaterScreens'))

// The payouts' English strings (and the rails' limits lines) come with their chunk, not with the first load.
addEnglish({ ...enPayout, ...enLimits })

/** What makes a bank payout or a card payout of the one payout flow: its entry (PayoutFlow.tsx, CardPayoutFlow.tsx) gives it. */
export type PayoutKind = {
  name: PayoutName
  /** Where the fiat lands, chosen once for the flow: the bank's beneficiary, or the card page (the machine's destination step). */
  destination: DestinationStep
  calls: LazyPart<{ calls: PayoutCalls }>
  /** The destination's screen: the beneficiary's form, or the card page's. */
  DestinationScreen: (props: { state: DestinationState; dispatch: (e: DestinationEvent) => void; services: Services; source: Source }) => JSX.Element
  /** The card page's way back to this link, and the return it brought (a card payout). */
  returnUrl?: () => string
  cardReturn?: () => CardReturn | undefined
  /** The currencies offered: the card's EUR, GBP and USD only. */
  currencies: (config: WidgetConfig) => string[]
  /** The schemas of the answers, fetched after the first screen. */
  schemas: { preload?(): void }
}

export type PayoutProps = { services: Services; onStep: (step: number, of: number) => void }

export function Payouts(props: PayoutProps & { kind: PayoutKind }) {
  const { services, kind } = props
  const pendingKey = flowKey(`${kind.name}-pending`)
  return (
    <FirstScreen
      checks={[payoutChecks, identityChecks]}
      stored={() =>
        anyStored(partnerStorage(services.config), [...keysOf(kind.name), ...identityKeys.local]) ||
        anyStored(partnerStorage(services.config, true), [...identityKeys.session, pendingKey])
      }
      later={[kind.schemas, referenceSchemas, onboardingSchemas, errorSchemas, services.limiter]}
    >
      {() => <Payout {...props} />}
    </FirstScreen>
  )
}

/** Each sub-machine's events, sent under its name (machine.ts). */
type Dispatchers = {
  payout: (e: PayoutEvent) => void
  identity: (e: IdentityEvent) => void
  destination: (e: DestinationEvent) => void
  funding: (e: FundingEvent) => void
}

function Payout({ services, onStep, kind }: PayoutProps & { kind: PayoutKind }) {
  const session = partnerStorage(services.config, true)
  const [state, dispatch] = useFlowMachine<PayoutState, PayoutEvent>(() => payoutParts(services, kind, session), [services])
  const to = useMemo<Dispatchers>(
    () => ({
      payout: dispatch,
      identity: (event) => dispatch({ type: 'IDENTITY', event }),
      destination: (event) => dispatch({ type: 'DESTINATION', event }),
      funding: (event) => dispatch({ type: 'FUNDING', event }),
    }),
    [dispatch],
  )
  // The identity steps are part of this payout when the buyer was not known at the start (the price is anonymous), after a round trip too.
  const identityPath = useRef(isIdentityState(state) || !('buyer' in state && state.buyer) || ('applicant' in state && !!state.applicant))
  if (isIdentityState(state)) identityPath.current = true
  const { step, of } = stepOf(state, useSteps(state, session, kind.name))
  useEffect(() => onStep(step, of), [step, of])
  useIdentitySync(state, to.identity, services, session)
  // A buyer reused from storage (not verified in this visit): the screens say whose account it is and offer "Not you?".
  return <PayoutScreen state={state} to={to} services={services} kind={kind} stored={!identityPath.current} />
}

/** The header's total: kept in this tab as the payout starts (a reload never changes it), decided anew only for a new payout (steps.ts). */
function useSteps(state: PayoutState, session: Storage | undefined, name: PayoutName): number {
  const kept = useMemo(() => stepsStore(session, name), [session, name])
  const total = useRef(0)
  const prev = useRef(state)
  if (!total.current) total.current = keptSteps(kept.get()) ?? stepsFrom(state)
  else total.current = stepsAfter(prev.current, state, total.current)
  prev.current = state
  const now = total.current
  useEffect(() => kept.put(now), [now])
  return now
}

function PayoutScreen({ state, to, services, kind, stored }: { state: PayoutState; to: Dispatchers; services: Services; kind: PayoutKind; stored: boolean }) {
  const { config } = services
  const source = payoutSourceOf(config)
  const later = useLazyPart(laterScreens, true)
  if (isIdentityState(state)) {
    return (
      <IdentitySteps
        state={state}
        dispatch={to.identity}
        identityUrl={config.identityUrl ?? ''}
        flow={kind.name}
        locale={config.locale}
        tier={state.pending?.tier}
      />
    )
  }
  if (state.tag === 'form' || state.tag === 'quoting') {
    return (
      <PayoutFormScreen
        state={state}
        dispatch={to.payout}
        source={source}
        currencies={kind.currencies(config)}
        locale={config.locale}
        notYou={stored}
        card={kind.destination.kind === 'card'}
      />
    )
  }
  if (later === 'failed') return <Notice tone="error">{t('app.loadFailed')}</Notice>
  if (!later) return <p role="status">{t('app.loading')}</p>
  const { ConnectScreen, FundingScreen, PayoutQuoteScreen, PayoutStatusScreen } = later
  switch (state.tag) {
    case 'quote':
      return <PayoutQuoteScreen state={state} dispatch={to.payout} source={source} locale={config.locale} />
    case 'connect': {
      const byAddress = !!byAddressOwner(state.buyer?.wallet, config.walletAddress)
      return <ConnectScreen state={state} dispatch={to.funding} source={source} config={config} byAddress={byAddress} />
    }
    case 'beneficiary':
    case 'card':
      return <kind.DestinationScreen state={state} dispatch={to.destination} services={services} source={source} />
    case 'funding':
      // The payout exists for this account: "Start over" is its one way back ("Not you?" is the form's, before anything is created).
      return <FundingScreen state={state} dispatch={to.funding} config={config} />
    case 'tracking':
    case 'result':
      return <PayoutStatusScreen state={state} dispatch={to.funding} config={config} />
  }
}

/** The machine, its first state (only this buyer's payout), what the embedding hears, and the effects (fetched as the flow starts). */
function payoutParts(services: Services, kind: PayoutKind, session: Storage | undefined): FlowParts<PayoutState, PayoutEvent> {
  const { config } = services
  const source = payoutSourceOf(config)
  const local = partnerStorage(config)
  const store = payoutStore(local, Date.now, kind.name)
  const start = identityStart(config, local, session)
  const pending = pendingStore(session, kind.name)
  const ctx: Context = {
    destination: kind.destination,
    source,
    linkWallet: config.walletAddress,
    get decimalMark() {
      return decimalMarkOf(config.locale)
    },
    emptyForm: () => ({
      kind: 'fiat',
      // Options carry amounts with a dot; the field shows them as the buyer types in this locale.
      amount: config.amount ? localeAmount(config.amount, decimalMarkOf(config.locale)) : '',
      // The registry's currency and country until the routes say where the form starts (lib/routeDefaults.ts).
      currency: firstCurrency(kind.currencies(config), config.defaults?.currency),
      country: kind.destination.kind === 'card' ? '' : (config.defaults?.country ?? ''),
      rail: '',
    }),
  }
  const deps = { config, source, store, references: referenceStore(local, Date.now, kind.name), spent: spentAddresses(local), pending, clock: systemClock }
  return defineFlow({
    // Only this buyer's payout (start.account is already refused under a link signed for another
    // wallet); another buyer's record stays stored for them, never shown here.
    initial: initialState(
      {
        record: start.account && store.load(start.account, config.walletAddress),
        buyer: start.account,
        identity: start.identity,
        pending: pending.take(),
        cardReturn: kind.cardReturn?.(),
      },
      ctx,
    ),
    transition: (state, event) => transition(state, event, ctx),
    // What the host page hears comes with the effects (none of it is needed to show the form).
    observe: lazyObserver(payoutEffects, ({ payoutEvents }) => (prev, next) => {
      for (const e of payoutEvents(prev, next, config, kind.name)) services.emit(e.name, e.payload as never)
    }),
    // Each payout's own calls (bank.ts, card.ts) come with its entry; the partner's door is the widget's (services).
    effects: lazyPart(() =>
      Promise.all([payoutEffects.load(), kind.calls.load(), services.partner()]).then(([effects, { calls }, partner]) => ({ ...effects, calls, partner })),
    ),
    start: ({ createPayoutEffects, discoverWallets, providerOf, calls, partner }, dispatch) =>
      createPayoutEffects(
        {
          ...deps,
          calls,
          partner,
          identity: { api: services.api, accounts: start.accounts, usedCodes: start.usedCodes },
          // viem arrives with the funding step, not before.
          loadChainActions: loadWalletCode,
          discover: (onChange) => discoverWallets(window, onChange),
          providerOf,
          returnUrl: kind.returnUrl,
          ...(kind.destination.kind === 'bank' ? { routes: { method: 'bank_payout' as const, currencies: kind.currencies(config) } } : {}),
          navigate: (url) => location.assign(url),
        },
        dispatch,
      ),
  })
}

/** The registry's currency where it is offered, else the first offered. */
const firstCurrency = (offered: string[], wanted?: string) => (wanted && offered.includes(wanted) ? wanted : offered[0])
