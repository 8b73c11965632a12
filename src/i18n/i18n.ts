import { en, type MessageKey } from './en'

export type { MessageKey }
export type Params = Record<string, string | number>

let catalog: Record<MessageKey, string> = en

/** Other locales are loaded on demand; English is bundled and the fallback for any missing key. */
export function setCatalog(messages: Partial<Record<MessageKey, string>>) {
  catalog = { ...en, ...messages }
}

export function t(key: MessageKey, params?: Params): string {
  const template = catalog[key] ?? en[key] ?? key
  return params ? template.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m)) : template
}
