import { type Signal, signal } from '@preact/signals'
import { type ApiClient, createApiClient } from './api/client'
import type { PartnerHttp } from './api/partnerHttp'
import type { Brand, Theme, WidgetConfig } from './config/config'
import type { Emit } from './config/protocol'
import { lazyLimiter } from './rateLimit/lazyLimiter'
import type { RateLimiter } from './rateLimit/rateLimiter'
import { safeLocalStorage } from './storage/safeStorage'

/** What an embedding may change without a remount. */
export type LiveOptions = { theme: Theme; brand: Brand; locale: string; amount?: string; authCode?: string }

export type Services = {
  config: WidgetConfig
  api: ApiClient
  /** `preload` fetches its code (a flow asks once its first screen is up). */
  limiter: RateLimiter & { preload?(): void }
  emit: Emit
  /**
   * The partner's backend, through its one door (api/partnerHttp.ts), built once for this widget
   * from its options; its code comes with the first flow effects that ask (never with a first load).
   */
  partner: () => Promise<PartnerHttp>
  live: Signal<LiveOptions>
  /** Set once a flow reached its end (the hosted page then offers the way back to the partner). */
  completed: Signal<boolean>
}

let shared: (RateLimiter & { preload(): void }) | undefined

/** One limiter per page, shared by every widget on it (and, through storage, by its other tabs). */
export function pageLimiter(backoffBaseMs?: number): RateLimiter & { preload(): void } {
  if (!shared) {
    const limiter = lazyLimiter(({ createRateLimiter, localSlotStore }) => {
      const storage = safeLocalStorage()
      return createRateLimiter({
        store: storage ? localSlotStore(storage) : undefined,
        backoffBaseMs,
        // The test query-core's focusManager makes, without loading query-core before the first poll.
        pollsPaused: () => globalThis.document?.visibilityState === 'hidden',
      })
    })
    globalThis.document?.addEventListener('visibilitychange', () => limiter.wake())
    shared = limiter
  }
  return shared
}

export function createServices(config: WidgetConfig, emit: Emit, abort?: AbortSignal): Services {
  const limiter = pageLimiter(config.timings?.backoffBaseMs)
  const completed = signal(false)
  let partner: Promise<PartnerHttp> | undefined
  return {
    config,
    limiter,
    completed,
    emit: (name, payload) => {
      if (name === 'complete') completed.value = true
      emit(name, payload)
    },
    live: signal({ theme: config.theme, brand: config.brand, locale: config.locale, amount: config.amount, authCode: config.authCode }),
    api: createApiClient({ apiBase: config.apiBase, limiter, signal: abort }),
    partner: () =>
      (partner ??= import('./api/partnerHttp').then(
        // The module, not a destructured import: Vite wraps the latter in a helper this first load would carry.
        (http) => http.createPartnerHttp({ base: config.partnerBase ?? '', token: config.partnerToken, cookies: config.partnerCookies }),
        (error) => {
          // A failed fetch of its code (offline) is tried again on the next ask.
          partner = undefined
          throw error
        },
      )),
  }
}
