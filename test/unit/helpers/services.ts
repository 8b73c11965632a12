// The Services a flow mounts with in a component test: this config, `post` as the API's post, a
// limiter that runs every request at once, `emit` for the host's events, live options from the config.
import { signal } from '@preact/signals'
import type { WidgetConfig } from '../../../src/config/config'
import type { Services } from '../../../src/services'
import { partnerDoor } from './partnerDoor'

export function servicesOf(
  config: WidgetConfig,
  post: (path: string, body: unknown) => Promise<unknown>,
  emit: (name: string, payload: Record<string, unknown>) => void = () => {},
): Services {
  return {
    config,
    api: { post },
    limiter: { status: () => ({ waiting: false, retries: 0 }), subscribe: () => () => {}, wake() {}, schedule: (run: () => Promise<unknown>) => run() },
    emit,
    live: signal({ theme: config.theme, brand: config.brand, locale: config.locale, amount: config.amount }),
    completed: signal(false),
    partner: partnerDoor(config),
  } as unknown as Services
}
