import type { ComponentChildren, ComponentType } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { ErrorBoundary } from './components/ErrorBoundary'
import { Notice } from './components/Notice'
import { Screen } from './components/Screen'
import { type ConfigResult, FLOW_NEEDS, type Flow, type WidgetConfig, flows } from './config/config'
import { type MessageKey, t } from './i18n/i18n'
import type { LiveOptions, Services } from './services'
import { legibleAccent } from './theme/accent'

/** `switchFlow`: opens another flow in place (the bank deposit offers the virtual account where it has no rail). */
/** `onStep(n, 0)`: the flow shows no step counter. */
type FlowProps = { services: Services; onStep: (step: number, of: number) => void; switchFlow?: (flow: Flow) => void }

// `.then(({ default: f }) => f)`: the bundler then hands over the component alone, not the flow chunk's
// whole module object (which needs a runtime helper in every flow's first load).
const loaders: Record<Flow, () => Promise<ComponentType<FlowProps>>> = {
  deposit: () => import('./flows/deposit/DepositFlow').then(({ default: f }) => f),
  card: () => import('./flows/card/CardFlow').then(({ default: f }) => f),
  onboarding: () => import('./flows/onboarding/OnboardingFlow').then(({ default: f }) => f),
  bankDeposit: () => import('./flows/bankDeposit/BankDepositFlow').then(({ default: f }) => f),
  payout: () => import('./flows/payout/PayoutFlow').then(({ default: f }) => f),
  cardPayout: () => import('./flows/payout/CardPayoutFlow').then(({ default: f }) => f),
}
/** A flow's words in the catalogs: `<flow>.name`, `start.<flow>`, `start.<flow>Hint`. */
const flowName = (flow: Flow) => t(`${flow}.name` as MessageKey)

/** The flows the partner offers (config.flows) that this embedding is set up for (config.ts FLOW_NEEDS). */
const available = (config: WidgetConfig): Flow[] => flows.filter((f) => config.flows.includes(f) && FLOW_NEEDS[f].every((need) => !!config[need]))

export type AppProps = { result: ConfigResult; services?: Services; onClose?: () => void; landmark?: boolean }

export function App({ result, services, onClose, landmark = true }: AppProps) {
  if (!result.ok || !services) {
    return (
      <Shell live={{ theme: 'light', brand: {}, locale: 'en' }} landmark={landmark}>
        <Screen title={t('app.configError')}>
          <Notice tone="error">{t('app.configErrorBody', { detail: result.ok ? '' : result.problem })}</Notice>
        </Screen>
      </Shell>
    )
  }
  return <Widget services={services} onClose={onClose} landmark={landmark} />
}

function Widget({ services, onClose, landmark }: { services: Services; onClose?: () => void; landmark: boolean }) {
  const { config } = services
  const [flow, setFlow] = useState<Flow | undefined>(config.flow)
  const [Loaded, setLoaded] = useState<{ flow: Flow; component: ComponentType<FlowProps> } | 'failed'>()
  const [step, setStep] = useState<[number, number]>()
  const [waiting, setWaiting] = useState(services.limiter.status().waiting)

  useEffect(() => services.limiter.subscribe((s) => setWaiting(s.waiting)), [services])
  useEffect(() => services.emit('ready', { flow: config.flow }), [services])
  useEffect(() => {
    if (!flow) return
    loaders[flow]().then(
      (component) => setLoaded({ flow, component }),
      () => setLoaded('failed'),
    )
  }, [flow])

  return (
    <Shell
      live={services.live.value}
      sandbox={config.sandbox}
      title={flow ? flowName(flow) : undefined}
      step={flow ? step : undefined}
      waiting={waiting}
      onClose={onClose}
      landmark={landmark}
    >
      {!flow && (
        <Screen title={t('start.heading')}>
          <ul class="choices">
            {available(config).map((choice) => (
              <li>
                <button type="button" class="choice" onClick={() => setFlow(choice)}>
                  <span>
                    <strong>{t(`start.${choice}` as MessageKey)}</strong>
                    <br />
                    <span class="muted">{t(`start.${choice}Hint` as MessageKey)}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </Screen>
      )}
      {flow && Loaded === 'failed' && <Notice tone="error">{t('app.loadFailed')}</Notice>}
      {flow && Loaded && Loaded !== 'failed' && Loaded.flow === flow && (
        // Every screen of the flow: one that throws shows a message, and the saved state stays.
        <ErrorBoundary
          key={flow}
          onError={(error) => {
            console.error('[stablecoin-widget]', error)
            services.emit('error', { flow, code: 'render_failed', message: t('app.crashedBody') })
          }}
        >
          <Loaded.component services={services} onStep={(n, of) => setStep([n, of])} switchFlow={(next) => available(config).includes(next) && setFlow(next)} />
        </ErrorBoundary>
      )}
      {flow && !Loaded && <p role="status">{t('app.loading')}</p>}
      {landmark && config.returnUrl && services.completed.value && (
        <p>
          <a href={config.returnUrl} target="_top">
            {t('app.returnToSite')}
          </a>
        </p>
      )}
    </Shell>
  )
}

/** The frame around every screen (exported for the first screens the build draws into the pages). */
export function Shell({
  children,
  live,
  sandbox,
  title,
  step,
  waiting,
  onClose,
  landmark,
}: {
  landmark: boolean
  children: ComponentChildren
  live: LiveOptions
  sandbox?: boolean
  title?: string
  step?: [number, number]
  waiting?: boolean
  onClose?: () => void
}) {
  const { brand } = live
  // Set through the CSSOM (not a style attribute), so a strict style-src CSP allows it.
  const style: Record<string, string> = {}
  if (brand.color) {
    style['--sw-accent'] = legibleAccent(brand.color, 'light')
    style['--sw-accent-dark'] = legibleAccent(brand.color, 'dark')
  }
  if (brand.radius !== undefined) style['--sw-radius'] = `${brand.radius}px`
  if (brand.font) style['--sw-font'] = brand.font
  return (
    <div class="widget" data-theme={live.theme} lang={live.locale} style={style}>
      <header class="bar">
        <span class="flow-name">{title ?? t('app.title')}</span>
        {step && step[1] > 0 && <span class="step-count">{t('app.step', { n: step[0], total: step[1] })}</span>}
        {sandbox && (
          <span class="badge" title={t('app.sandboxHint')}>
            {t('app.sandbox')}
          </span>
        )}
        {onClose && (
          <button type="button" class="close" aria-label={t('app.close')} onClick={onClose}>
            ×
          </button>
        )}
      </header>
      {/* In a partner's page the widget is a region of it; the page keeps its own main landmark. */}
      {landmark ? (
        <main>{children}</main>
      ) : (
        <div role="region" aria-label={title ?? t('app.title')}>
          {children}
        </div>
      )}
      <p class="live" role="status" aria-live="polite">
        {waiting ? t('app.waiting') : ''}
      </p>
    </div>
  )
}
