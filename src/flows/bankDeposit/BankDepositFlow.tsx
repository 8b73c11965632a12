import { useEffect, useRef } from 'preact/hooks'
import { Notice } from '../../components/Notice'
import type { Flow, WidgetConfig } from '../../config/config'
import { enBankDepositAmount } from '../../i18n/bankDeposit/en-amount'
import { enLimits } from '../../i18n/shared/en-limits'
import { addEnglish, t } from '../../i18n/i18n'
import { buyerAccount, knownBuyer } from '../../identity/account'
import { isIdentityState } from '../../identity/machine'
import { usedAuthCodes } from '../../identity/usedCodes'
import { systemClock } from '../../kernel/types'
import { useFlowMachine } from '../../kernel/useFlowMachine'
import { decimalMarkOf, localeAmount } from '../../lib/decimal'
import { AmountScreen } from '../../screens/bankDeposit/AmountScreen'
import type { Services } from '../../services'
import { partnerStorage } from '../../storage/flowStore'
import { lazyObserver, lazyPart, useLazyPart } from '../../kernel/lazyPart'
import { defineFlow } from '../../kernel/defineFlow'
import { type BankDepositEvent, type BankDepositState, type Context, initialState, transition } from './machine'
import { errorSchemas } from '../../api/client'
import { onboardingSchemas } from '../../api/onboarding'
import { referenceSchemas } from '../../api/reference'
import { identityChecks, identityKeys } from '../../identity/checks'
import { FirstScreen } from '../../components/FirstScreen'
import { anyStored } from '../../storage/storedCheck'
import { attemptStore, bankDepositChecks, bankDepositKeys, bankDepositSessionKeys, depositStore, pendingStore } from './persisted'

// The I/O, and what the host page hears, are fetched as the flow starts: the first screen works
// before they arrive (what it asks for meanwhile starts, and is told, once they are here).
// The higher tier's detour (422 requires_action) comes with them, and with the identity steps: only
// they lead into it (a failed create, a way back from the identity provider).
const tierPart = lazyPart(() => import('./higherTier'))
const bankDepositEffects = lazyPart(() =>
  Promise.all([import('./effects'), import('./hostEvents'), import('../../config/returnLink'), tierPart.load()]).then(([effects, events, link]) => ({
    ...effects,
    ...events,
    ...link,
  })),
)

// This flow's English strings come with its chunk, not with the first load (the details' with their screens).
addEnglish({ ...enBankDepositAmount, ...enLimits })

// Fetched when needed, not before the first screen: the identity steps, where they begin and their
// screens (only for a buyer the service does not know), and the screens after the deposit exists
// (fetched while the form shows).
const identityPart = lazyPart(() => Promise.all([import('./IdentityScreens'), tierPart.load()]).then(([screens]) => screens))
const depositScreens = lazyPart(() => import('../../screens/bankDeposit/DepositScreens'))

// The deposit's answers' schemas, once the first screen is up: with the api module that reads them
// (the effects' and the later screens', not the first screen's).
const answers = {
  preload: () =>
    void import('../../api/bankDeposit').then(
      (m) => m.bankDepositSchemas.preload(),
      () => {},
    ),
}

type Props = { services: Services; onStep: (step: number, of: number) => void; switchFlow?: (flow: Flow) => void }

export default function BankDepositFlow(props: Props) {
  return (
    <FirstScreen
      checks={[bankDepositChecks, identityChecks]}
      stored={() =>
        anyStored(partnerStorage(props.services.config), [...bankDepositKeys, ...identityKeys.local]) ||
        anyStored(partnerStorage(props.services.config, true), [...identityKeys.session, ...bankDepositSessionKeys])
      }
      later={[answers, referenceSchemas, onboardingSchemas, errorSchemas, props.services.limiter]}
    >
      {() => <BankDeposit {...props} />}
    </FirstScreen>
  )
}

function BankDeposit({ services, onStep, switchFlow }: Props) {
  const { config } = services
  const { local, session, accounts, parts, state, dispatch } = useBankDepositMachine(services)
  // No step counter: whether the identity steps are part of this deposit is not a total a reload
  // keeps (a buyer verified mid-deposit comes back known, two steps from the end of five).
  useEffect(() => onStep(0, 0), [])
  // The partner's amount, updated live (unless a retry pinned it).
  const { amount, locale } = services.live.value
  useEffect(() => {
    if (amount !== undefined) dispatch({ type: 'EDIT', amount: localeAmount(amount, decimalMarkOf(locale)) })
  }, [amount])

  const inIdentity = state.tag === 'starting' || isIdentityState(state)
  const part = useLazyPart(identityPart, inIdentity)
  useEffect(() => {
    if (state.tag !== 'starting' || !part || part === 'failed') return
    // Where the identity steps begin (back from the provider with a code, or the wallet).
    dispatch({ type: 'IDENTITY_READY', identity: part.identityBegins(config, local, session) })
  }, [state.tag, part])
  // Wanted from the form on: here by the time the deposit exists.
  const screens = useLazyPart(depositScreens, !inIdentity)

  const restart = () => {
    // The same check as at the start: never another wallet's account under a link signed for this one.
    const account = knownBuyer(accounts, config)
    parts.current?.store.clear()
    if (!account) return location.reload()
    // Where the last deposit came from; the currency follows the country once the reference data is in.
    const country = state.tag === 'tracking' || state.tag === 'result' ? state.deposit.country : undefined
    dispatch({ type: 'RESTART', account, form: newForm(config, country) })
  }
  // The standing virtual account (the onboarding flow): in place where the widget lets us switch;
  // otherwise by this link naming that flow, which only an unsigned link may (a signed one is the
  // partner's word as it is). Offered only where the ways to pay say so, and those come with the
  // effects' part: so does the code that reads the link.
  const loaded = bankDepositEffects.get()
  const otherLink = loaded?.returnToThisLink(location.href, 'onboarding')
  const virtualAccount = switchFlow
    ? () => switchFlow('onboarding')
    : otherLink && new URL(otherLink).searchParams.get('flow') === 'onboarding'
      ? () => location.assign(otherLink)
      : undefined

  if (state.tag === 'form') return <AmountScreen state={state} dispatch={dispatch} config={config} onVirtualAccount={virtualAccount} />
  const shown = inIdentity ? part : screens
  if (shown === 'failed') return <Notice tone="error">{t('app.loadFailed')}</Notice>
  if (state.tag === 'starting' || !shown) return <p role="status">{t('app.loading')}</p>
  if (isIdentityState(state))
    return part && part !== 'failed' ? (
      <part.BankIdentity state={state} dispatch={dispatch} services={services} session={session} tier={state.pending?.tier} />
    ) : null
  if (!screens || screens === 'failed') return null
  return state.tag === 'tracking' ? (
    <screens.FollowScreen state={state} dispatch={dispatch} locale={config.locale} onRestart={restart} />
  ) : (
    <screens.ResultScreen state={state} locale={config.locale} chain={chainOfDestination(services)} onRestart={restart} />
  )
}

/** The flow's machine, with what it resumes (a kept deposit, a pinned retry) and its effects. */
function useBankDepositMachine(services: Services) {
  const { config } = services
  const local = partnerStorage(config)
  const session = partnerStorage(config, true)
  const accounts = buyerAccount(local)
  const parts = useRef<{ store: ReturnType<typeof depositStore> } | undefined>(undefined)
  const ctx: Context = {
    get decimalMark() {
      return decimalMarkOf(config.locale)
    },
    currencies: config.fiatCurrencies,
    form: (country?: string) => newForm(config, country),
    get tier() {
      return tierPart.get()
    },
  }
  const [state, dispatch] = useFlowMachine<BankDepositState, BankDepositEvent>(() => {
    const store = depositStore(local)
    const attempts = attemptStore(local)
    const detour = pendingStore(session)
    parts.current = { store }
    const known = accounts.load()
    const account = knownBuyer(accounts, config)
    // A deposit is resumed only for the buyer it pays: not after "Not you?" forgot them, not under
    // a link signed for another wallet (a shared device must not show one buyer's details to another).
    const found = store.load()
    if (found && !known) store.clear()
    const kept = found && account && found.deposit.wallet.toLowerCase() === account.wallet.toLowerCase() ? found : undefined
    const pending = account && config.reference ? attempts.load() : undefined
    const pinned = !!pending && pending.accountId === account?.accountId
    // A partner's reference already sent for this buyer: the retry asks for what the first one did.
    const form = pinned ? { ...ctx.form(), currency: pending.currency, amount: localeAmount(pending.amount, ctx.decimalMark) } : ctx.form()
    return defineFlow({
      // A higher tier's detour, back from the identity provider (taken once: a later load starts afresh).
      initial: initialState(kept, account && { account, form, pinned }, detour.take()),
      transition: (state, event) => transition(state, event, ctx),
      observe: lazyObserver(bankDepositEffects, ({ bankDepositEvents }) => (prev, next) => {
        for (const e of bankDepositEvents(prev, next)) services.emit(e.name, e.payload as never)
      }),
      // The partner's door is the widget's (services), fetched with the effects.
      effects: lazyPart(() => Promise.all([bankDepositEffects.load(), services.partner()]).then(([effects, http]) => ({ ...effects, http }))),
      start: ({ createBankDepositEffects, http }, dispatch) => {
        const effects = createBankDepositEffects(
          {
            http,
            store,
            attempts,
            pending: detour,
            identity: { api: services.api, accounts, usedCodes: usedAuthCodes(local), wallet: { target: window, config, clock: systemClock } },
            clock: systemClock,
            partnerReference: config.reference,
            currencies: config.fiatCurrencies,
            defaults: config.defaults,
            locale: config.locale,
            pollIntervalMs: config.timings?.bankPollMs,
          },
          dispatch,
        )
        // The identity steps' connect-wallet sub-machine, handed in with the effects (identity/machine.ts: IdentityContext).
        ctx.connectWallet = effects.connectWallet
        return effects
      },
    })
  }, [services])

  return { local, session, accounts, parts, state, dispatch }
}

function newForm(config: WidgetConfig, country?: string) {
  return {
    // The buyer's own country where known; the rest of the rule (the registry's, the browser's region,
    // the first route) once the ways to pay are in (reference.ts startRoute, lib/routeDefaults.ts).
    country: country ?? '',
    currency: config.fiatCurrencies[0],
    // Options carry amounts with a dot; the field shows them as the buyer types in this locale.
    amount: config.amount ? localeAmount(config.amount, decimalMarkOf(config.locale)) : '',
  }
}

function chainOfDestination(services: Services) {
  const { config } = services
  const id = config.destination?.chainId ?? config.defaultDestination.chainId
  return config.chains.find((c) => c.id === id) ?? { id, name: `Chain ${id}` }
}
