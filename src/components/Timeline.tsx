import type { ComponentChildren } from 'preact'
import { t } from '../i18n/i18n'

export type StepState = 'todo' | 'active' | 'done' | 'failed'
export type TimelineStep = { label: string; state: StepState; extra?: ComponentChildren }

/** Long work as a vertical list of steps, each saying its state in words, not colour alone. */
export function Timeline({ steps }: { steps: TimelineStep[] }) {
  return (
    <ol class="timeline" aria-label={t('steps.heading')}>
      {steps.map((step) => (
        <li class={`step step-${step.state}`} aria-current={step.state === 'active' ? 'step' : undefined}>
          <span class="dot" aria-hidden="true" />
          <span class="label">
            {step.label} <span class="state">({t(`steps.${step.state}`)})</span>
          </span>
          {step.extra && <div class="extra">{step.extra}</div>}
        </li>
      ))}
    </ol>
  )
}
