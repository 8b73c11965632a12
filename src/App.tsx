import type { ComponentType } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { Notice } from './components/Notice'
import { Screen } from './components/Screen'
import { type ConfigResult, type Flow, type WidgetConfig, flows } from './config/config'
import { type MessageKey, t } from './i18n/i18n'
import { type Services, createServices } from './services'

type FlowProps = { services: Services; onStep: (step: number, of: number) => void }

const loaders: Record<Flow, () => Promise<{ default: ComponentType<FlowProps> }>> = {
  deposit: () => import('./flows/deposit/DepositFlow'),
  card: () => import('./flows/card/CardFlow'),
  onboarding: () => import('./flows/onboarding/OnboardingFlow'),
}
const flowNames: Record<Flow, MessageKey> = {
  deposit: 'deposit.name',
  card: 'card.name',
  onboarding: 'fiat.name',
}

const startLabels: Record<Flow, [MessageKey, MessageKey]> = {
  deposit: ['start.deposit', 'start.depositHint'],
  card: ['start.card', 'start.cardHint'],
  onboarding: ['start.fiat', 'start.fiatHint'],
}

/** The flows this embedding is set up for: card needs the partner backend, bank transfer the identity page. */
function available(config: WidgetConfig): Flow[] {
  return flows.filter((f) => (f === 'card' ? !!config.partnerBase : f === 'onboarding' ? !!config.identityUrl : true))
}

export function App({ result }: { result: ConfigResult }) {
  if (!result.ok) {
    return (
      <Shell>
        <Screen title={t('app.configError')}>
          <Notice tone="error">{t('app.configErrorBody', { detail: result.problem })}</Notice>
        </Screen>
      </Shell>
    )
  }
  return <Widget services={createServicesOnce(result)} />
}

let services: Services | undefined
function createServicesOnce(result: Extract<ConfigResult, { ok: true }>) {
  services ??= createServices(result.config)
  return services
}

function Widget({ services }: { services: Services }) {
  const { config } = services
  const [flow, setFlow] = useState<Flow | undefined>(config.flow)
  const [Loaded, setLoaded] = useState<{ flow: Flow; component: ComponentType<FlowProps> } | 'failed'>()
  const [step, setStep] = useState<[number, number]>()
  const [waiting, setWaiting] = useState(services.limiter.status().waiting)

  useEffect(() => services.limiter.subscribe((s) => setWaiting(s.waiting)), [services])
  useEffect(() => {
    if (!flow) return
    loaders[flow]().then(
      (module) => setLoaded({ flow, component: module.default }),
      () => setLoaded('failed'),
    )
  }, [flow])

  return (
    <Shell
      sandbox={config.sandbox}
      title={flow ? t(flowNames[flow]) : undefined}
      step={flow ? step : undefined}
      waiting={waiting}
    >
      {!flow && (
        <Screen title={t('start.heading')}>
          <ul class="choices">
            {available(config).map((choice) => (
              <li>
                <button type="button" class="choice" onClick={() => setFlow(choice)}>
                  <span>
                    <strong>{t(startLabels[choice][0])}</strong>
                    <br />
                    <span class="muted">{t(startLabels[choice][1])}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </Screen>
      )}
      {flow && Loaded === 'failed' && <Notice tone="error">{t('app.loadFailed')}</Notice>}
      {flow && Loaded && Loaded !== 'failed' && Loaded.flow === flow && (
        <Loaded.component services={services} onStep={(n, of) => setStep([n, of])} />
      )}
      {flow && !Loaded && <p role="status">{t('app.loading')}</p>}
    </Shell>
  )
}

function Shell({
  children,
  sandbox,
  title,
  step,
  waiting,
}: {
  children: preact.ComponentChildren
  sandbox?: boolean
  title?: string
  step?: [number, number]
  waiting?: boolean
}) {
  return (
    <div class="widget">
      <header class="bar">
        <span class="flow-name">{title ?? t('app.title')}</span>
        {step && <span class="step-count">{t('app.step', { n: step[0], total: step[1] })}</span>}
        {sandbox && (
          <span class="badge" title={t('app.sandboxHint')}>
            {t('app.sandbox')}
          </span>
        )}
      </header>
      <main>{children}</main>
      <p class="live" role="status" aria-live="polite">
        {waiting ? t('app.waiting') : ''}
      </p>
    </div>
  )
}
