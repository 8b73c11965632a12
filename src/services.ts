import { focusManager } from '@tanstack/query-core'
import { type ApiClient, createApiClient } from './api/client'
import type { WidgetConfig } from './config/config'
import { type RateLimiter, createRateLimiter, localSlotStore } from './rateLimit/rateLimiter'
import { safeLocalStorage } from './storage/flowStore'

export type Services = { config: WidgetConfig; api: ApiClient; limiter: RateLimiter }

/** The one limiter and API client of this page, shared by every flow. */
export function createServices(config: WidgetConfig): Services {
  const storage = safeLocalStorage()
  const limiter = createRateLimiter({
    store: storage ? localSlotStore(storage) : undefined,
    pollsPaused: () => !focusManager.isFocused(),
  })
  focusManager.subscribe(() => limiter.wake())
  return { config, limiter, api: createApiClient({ apiBase: config.apiBase, limiter }) }
}
