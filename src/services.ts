import { type Signal, signal } from '@preact/signals'
import { focusManager } from '@tanstack/query-core'
import { type ApiClient, createApiClient } from './api/client'
import type { Brand, Theme, WidgetConfig } from './config/config'
import type { Emit } from './embed/protocol'
import { type RateLimiter, createRateLimiter, localSlotStore } from './rateLimit/rateLimiter'
import { safeLocalStorage } from './storage/safeStorage'

/** What an embedding may change without a remount. */
export type LiveOptions = { theme: Theme; brand: Brand; locale: string; amount?: string; authCode?: string }

export type Services = {
  config: WidgetConfig
  api: ApiClient
  limiter: RateLimiter
  emit: Emit
  live: Signal<LiveOptions>
}

let shared: RateLimiter | undefined

/** One limiter per page, shared by every widget on it (and, through storage, by its other tabs). */
export function pageLimiter(): RateLimiter {
  if (!shared) {
    const storage = safeLocalStorage()
    const limiter = createRateLimiter({
      store: storage ? localSlotStore(storage) : undefined,
      pollsPaused: () => !focusManager.isFocused(),
    })
    focusManager.subscribe(() => limiter.wake())
    shared = limiter
  }
  return shared
}

export function createServices(config: WidgetConfig, emit: Emit, signal?: AbortSignal): Services {
  const limiter = pageLimiter()
  return {
    config,
    limiter,
    emit,
    live: signal_({ theme: config.theme, brand: config.brand, locale: config.locale, amount: config.amount, authCode: config.authCode }),
    api: createApiClient({ apiBase: config.apiBase, limiter, signal }),
  }
}

const signal_ = <T,>(value: T) => signal(value)
