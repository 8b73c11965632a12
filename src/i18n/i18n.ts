import { signal } from '@preact/signals'
import { en, type MessageKey } from './en'

export type { MessageKey }
export type Params = Record<string, string | number>

type Messages = Partial<Record<MessageKey, string>>

// English: the shared strings, plus each flow's own as the flow arrives (addEnglish).
let english: Messages = en
// A signal, so every screen that called t() re-renders when a catalog arrives.
const catalog = signal<Messages>(en)
let translated: Messages = {}

/** A flow's English strings, added by the flow's chunk when it loads (idempotent). */
export function addEnglish(messages: Messages): void {
  if (Object.keys(messages).every((key) => key in english)) return
  english = { ...english, ...messages }
  catalog.value = { ...english, ...translated }
}

type Catalog = { default: Messages }
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
    translated = {}
    catalog.value = english
    return name
  }
  try {
    const loaded = (await catalogs[name]()).default
    if (wanted !== name) return name
    translated = loaded
    catalog.value = { ...english, ...loaded }
  } catch {
    // offline or blocked: English stays
  }
  return name
}

export function t(key: MessageKey, params?: Params): string {
  const template = catalog.value[key] ?? english[key] ?? key
  return params ? template.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m)) : template
}
