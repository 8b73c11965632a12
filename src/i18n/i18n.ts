import { signal } from '@preact/signals'
import { en, type MessageKey } from './en'

export type { MessageKey }
export type Params = Record<string, string | number>

// A signal, so every screen that called t() re-renders when a catalog arrives.
const catalog = signal<Record<MessageKey, string>>(en)

type Catalog = { default: Record<MessageKey, string> }
/** English is bundled; the others are fetched on demand. */
const catalogs: Record<string, () => Promise<Catalog>> = {
  es: () => import('./es'),
  'pt-BR': () => import('./pt-BR'),
  fr: () => import('./fr'),
  de: () => import('./de'),
}

export const locales = ['en', ...Object.keys(catalogs)]

/** The best catalog for a BCP 47 tag: exact, then language only ("pt-PT" → "pt-BR"), else English. */
export function catalogFor(locale: string): string {
  if (locale === 'en' || catalogs[locale]) return locale
  const language = locale.split('-')[0].toLowerCase()
  return locales.find((l) => l.split('-')[0] === language) ?? 'en'
}

let wanted = 'en'
export async function loadLocale(locale: string): Promise<string> {
  const name = catalogFor(locale)
  wanted = name
  if (name === 'en') {
    catalog.value = en
    return name
  }
  try {
    const loaded = (await catalogs[name]()).default
    if (wanted === name) catalog.value = { ...en, ...loaded }
  } catch {
    // offline or blocked: English stays
  }
  return name
}

export function t(key: MessageKey, params?: Params): string {
  const template = catalog.value[key] ?? en[key] ?? key
  return params ? template.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m)) : template
}
