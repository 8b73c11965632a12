import { useEffect, useRef } from 'preact/hooks'
import { Notice } from '../../components/Notice'
import type { Flow, WidgetConfig } from '../../config/config'
import { returnToThisLink } from '../../config/returnLink'
import { enBankDepositAmount } from '../../i18n/bankDeposit/en-amount'
import { enLimits } from '../../i18n/bankDeposit/en-limits'
import { addEnglish, t } from '../../i18n/i18n'
import { type BuyerAccount, buyerAccount } from '../../identity/account'
import { systemClock } from '../../kernel/types'
import { useFlowMachine } from '../../kernel/useFlowMachine'
import { decimalMarkOf, localeAmount } from '../../lib/decimal'
import { AmountScreen } from '../../screens/bankDeposit/AmountScreen'
import type { Services } from '../../services'
import { partnerStorage } from '../../storage/flowStore'
import { bankDepositEvents } from './hostEvents'
import { lazyEffects, lazyPart, useLazyPart } from '../../kernel/lazyPart'
import { type FlowContext, type FlowEvent, type FlowState, amountState, flowTransition, isIdentityStep, resumeState } from './machine'
import { bankDepositSchemas } from '../../api/bankDeposit'
import { errorSchemas } from '../../api/client'
import { fiatSchemas } from '../../api/fiat'
import { referenceSchemas } from '../../api/reference'
import { identityChecks, identityKeys } from '../../identity/checks'
import { FirstScreen } from '../../components/FirstScreen'
import { anyStored } from '../../storage/storedCheck'
import { attemptStore, bankDepositChecks, bankDepositKeys, depositStore, newReference } from './persisted'

// The I/O is fetched as the flow starts: the first screen works before it arrives (what it asks for
// meanwhile starts once it is here).
const bankDepositEffects = lazyPart(() => Promise.all([import('./effects'), import('../../api/partnerHttp')]).then(([effects, http]) => ({ ...effects, ...http })))

// This flow's English strings come with its chunk, not with the first load (the details' with their screens).
addEnglish({ ...enBankDepositAmount, ...enLimits })

// Fetched when needed, not before the first screen: the identity steps (only for a buyer the
// service does not know) and the screens after the deposit exists (fetched while the amount shows).
const identityPart = lazyPart(() => import('../../screens/bankDeposit/IdentityPart'))
const depositScreens = lazyPart(() => import('../../screens/bankDeposit/DepositScreens'))

type Props = { services: Services; onStep: (step: number, of: number) => void; switchFlow?: (flow: Flow) => void }
type Identity = NonNullable<ReturnType<typeof identityPart.get>>

const STEPS: Record<FlowState['tag'], number> = { starting: 1, wallet: 1, identity: 2, details: 3, amount: 4, following: 5, done: 5 }

export default function BankDepositFlow(props: Props) {
  return (
    <FirstScreen checks={[bankDepositChecks, identityChecks]} stored={() => anyStored(partnerStorage(props.services.config), [...bankDepositKeys, ...identityKeys.local]) || anyStored(partnerStorage(props.services.config, true), identityKeys.session)} later={[bankDepositSchemas, referenceSchemas, fiatSchemas, errorSchemas, props.services.limiter]}>
      {() => <BankDeposit {...props} />}
    </FirstScreen>
  )
}

function BankDeposit({ services, onStep, switchFlow }: Props) {
  const { config } = services
  const local = partnerStorage(config)
  const session = partnerStorage(config, true)
  const accounts = buyerAccount(local)
  // The identity part's pieces once it has arrived (its own stores of the account and spent codes).
  const identity = useRef<{ part: Identity; deps: Parameters<Identity['identityEffect']>[1] } | undefined>(undefined)
  const parts = useRef<{ store: ReturnType<typeof depositStore> } | undefined>(undefined)
  const ctx: FlowContext = {
    get decimalMark() {
      return decimalMarkOf(config.locale)
    },
    currencies: config.fiatCurrencies,
    form: (country?: string) => newForm(config, country),
    get identity() {
      return identity.current?.part.identityTransition
    },
  }
  const [state, dispatch] = useFlowMachine<FlowState, FlowEvent>(() => {
    const store = depositStore(local)
    const attempts = attemptStore(local)
    parts.current = { store }
    const known = accounts.load()
    const account = knownBuyer(known, config)
    // A deposit is resumed only for the buyer it pays: not after "Not you?" forgot them, not under
    // a link signed for another wallet (a shared device must not show one buyer's details to another).
    const found = store.load()
    if (found && !known) store.clear()
    const kept = found && account && found.deposit.wallet.toLowerCase() === account.wallet.toLowerCase() ? found : undefined
    const pending = account && config.reference ? attempts.load() : undefined
    const pinned = !!pending && pending.accountId === account?.accountId
    // A partner's reference already sent for this buyer: the retry asks for what the first one did.
    const form = pinned ? { ...ctx.form(), currency: pending.currency, amount: localeAmount(pending.amount, ctx.decimalMark) } : ctx.form()
    const initial: FlowState = kept ? resumeState(kept.deposit, kept.status) : account ? amountState(account, form, pinned) : { tag: 'starting' }
    return {
      initial,
      transition: (state, event) => flowTransition(state, event, ctx),
      observe: (prev, next) => {
        for (const e of bankDepositEvents(prev, next)) services.emit(e.name, e.payload as never)
      },
      effects: (dispatch) =>
        lazyEffects(bankDepositEffects, ({ createBankDepositEffects, createPartnerHttp }) =>
          createBankDepositEffects(
            {
              http: createPartnerHttp({ base: config.partnerBase ?? '', token: config.partnerToken, cookies: config.partnerCookies }),
              store,
              attempts,
              clock: systemClock,
              partnerReference: config.reference,
              newReference: () => newReference(),
              pollIntervalMs: config.timings?.bankPollMs,
            },
            dispatch,
            (state) => identity.current && identity.current.part.identityEffect(state, identity.current.deps, dispatch),
          ),
        ),
    }
  }, [services])

  const identityPath = useRef(state.tag === 'starting')
  const step = STEPS[state.tag]
  useEffect(() => (identityPath.current ? onStep(step, 5) : onStep(step - 3, 2)), [step])
  // The partner's amount, updated live (unless a retry pinned it).
  const { amount, locale } = services.live.value
  useEffect(() => {
    if (amount !== undefined) dispatch({ type: 'EDIT', amount: localeAmount(amount, decimalMarkOf(locale)) })
  }, [amount])

  const inIdentity = state.tag === 'starting' || isIdentityStep(state)
  const part = useLazyPart(identityPart, inIdentity)
  useEffect(() => {
    if (state.tag !== 'starting' || !part || part === 'failed') return
    // Where the identity steps begin (back from the provider with a code, or the wallet).
    const start = part.identityStart(config, local, session)
    identity.current = { part, deps: { api: services.api, accounts: start.accounts, usedCodes: start.usedCodes } }
    dispatch({ type: 'IDENTITY_READY', identity: start.identity })
  }, [state.tag, part])
  // Wanted from the amount screen on: here by the time the deposit exists.
  const screens = useLazyPart(depositScreens, !inIdentity)

  const restart = () => {
    // The same check as at the start: never another wallet's account under a link signed for this one.
    const account = knownBuyer(accounts.load(), config)
    parts.current?.store.clear()
    if (!account) return location.reload()
    // Where the last deposit came from; the currency follows the country once the reference data is in.
    const country = state.tag === 'following' || state.tag === 'done' ? state.deposit.country : undefined
    dispatch({ type: 'RESTART', account, form: newForm(config, country) })
  }
  // The standing virtual account (the onboarding flow): in place where the widget lets us switch;
  // otherwise by this link naming that flow, which only an unsigned link may (a signed one is the
  // partner's word as it is).
  const otherLink = returnToThisLink(location.href, 'onboarding')
  const virtualAccount = switchFlow
    ? () => switchFlow('onboarding')
    : new URL(otherLink).searchParams.get('flow') === 'onboarding'
      ? () => location.assign(otherLink)
      : undefined

  if (state.tag === 'amount') return <AmountScreen state={state} dispatch={dispatch} config={config} onVirtualAccount={virtualAccount} />
  const loaded = inIdentity ? part : screens
  if (loaded === 'failed') return <Notice tone="error">{t('app.loadFailed')}</Notice>
  if (state.tag === 'starting' || !loaded) return <p role="status">{t('app.loading')}</p>
  if (isIdentityStep(state)) return part && part !== 'failed' ? <part.BankIdentity state={state} dispatch={dispatch} services={services} session={session} /> : null
  if (!screens || screens === 'failed') return null
  return state.tag === 'following' ? (
    <screens.FollowScreen state={state} dispatch={dispatch} locale={config.locale} onRestart={restart} />
  ) : (
    <screens.ResultScreen state={state} locale={config.locale} chain={chainOfDestination(services)} onRestart={restart} />
  )
}

/** The stored buyer, unless the link is signed for another wallet (then it is another buyer's payment). */
function knownBuyer(known: BuyerAccount | undefined, config: WidgetConfig): BuyerAccount | undefined {
  return known && (!config.walletAddress || known.wallet.toLowerCase() === config.walletAddress.toLowerCase()) ? known : undefined
}

function newForm(config: WidgetConfig, country?: string) {
  return {
    country: country ?? regionOf(config.locale),
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

/** "de-DE" → "DE"; a language alone names no country. */
function regionOf(locale: string): string {
  try {
    return new Intl.Locale(locale).region ?? ''
  } catch {
    return ''
  }
}
