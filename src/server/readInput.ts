// The request's fields, read once: the query of a GET, or a POST's JSON body capped while it
// streams in, refused on a duplicate key or a character no store keeps.
import { duplicateKey } from './duplicateKey'
import { parseJson } from './forward'
import type { KitCode } from './kitCodes'
import { unstorableField, unstorableProblem } from './unstorable'

export const MAX_BODY = 16 * 1024

export type Problem = { problem: string; status: number; code: KitCode }
export type Input = { value: unknown; text?: string } | Problem

const refuse = (code: KitCode, problem: string, status = 400): Problem => ({ problem, status, code })

export function readQuery(url: URL): Input {
  const value: Record<string, string> = {}
  for (const [name, field] of url.searchParams) {
    if (Object.hasOwn(value, name)) return refuse('duplicate_key', `${name}: given more than once`)
    value[name] = field
  }
  const unstorable = unstorableField(value)
  if (unstorable !== undefined) return refuse('invalid_field', unstorableProblem(unstorable))
  return { value }
}

export async function readBody(request: Request): Promise<Input> {
  if (!/^application\/json\s*(;|$)/i.test(request.headers.get('Content-Type') ?? '')) {
    return refuse('unsupported_media_type', 'Content-Type: must be application/json', 415)
  }
  const tooLarge = refuse('body_too_large', 'body: at most 16 KiB', 413)
  if (Number(request.headers.get('Content-Length') ?? 0) > MAX_BODY) return tooLarge
  const text = await readLimited(request)
  if (text === undefined) return tooLarge
  if (text.trim() === '') return refuse('invalid_json', 'body: required')
  const value = parseJson(text)
  if (value === undefined) return refuse('invalid_json', 'body: not valid JSON')
  // JSON.parse keeps the last of two equal keys: the body would mean one thing here and another to
  // whoever reads the first (authenticate, a log).
  const twice = duplicateKey(text)
  if (twice !== undefined) return refuse('duplicate_key', `${twice}: given more than once`)
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return refuse('invalid_json', 'body: must be a JSON object')
  const unstorable = unstorableField(value)
  if (unstorable !== undefined) return refuse('invalid_field', unstorableProblem(unstorable))
  return { value, text }
}

/** The body as text, or undefined as soon as it passes MAX_BODY bytes (a chunked body has no Content-Length). */
async function readLimited(request: Request): Promise<string | undefined> {
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > MAX_BODY) {
      await reader.cancel().catch(() => {})
      return undefined
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return new TextDecoder().decode(bytes)
}
