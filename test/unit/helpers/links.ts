// Partner links as the tests make them: the fixture registry, acme-shop's signing key, a query
// signed as the partner signs it, and the config parseOptions makes of a page's options.
import { readFileSync } from 'node:fs'
import { type WidgetConfig, parseOptions } from '../../../src/config/config'
import type { RegistryEntry } from '../../../src/config/link'

export const registry: RegistryEntry[] = JSON.parse(readFileSync('test/fixtures/partners.json', 'utf8'))
export const privateKey: JsonWebKey = JSON.parse(readFileSync('test/fixtures/partners.private.json', 'utf8'))['acme-shop']

/** `?query&signature=…`, the query signed (ECDSA P-256, SHA-256) with `jwk`. */
export async function signWith(jwk: JsonWebKey, query: string) {
  const key = await crypto.subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign'])
  const sig = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key, new TextEncoder().encode(query))
  return `?${query}&signature=${Buffer.from(sig).toString('base64url')}`
}
/** The query signed with acme-shop's key. */
export const signed = (query: string) => signWith(privateKey, query)

/** The config parseOptions makes of these options; throws its problem when it refuses them. */
export function configFrom(options: Parameters<typeof parseOptions>[0]): WidgetConfig {
  const parsed = parseOptions(options)
  if (!parsed.ok) throw new Error(parsed.problem)
  return parsed.config
}
