// The partner's user, by the bearer token the widget sends (never by cookies): the partner's
// authenticate answers its id, or the request is refused with 401.
import { describe } from './describe'
import type { Kit } from './kit'
import type { Answerer } from './kitCodes'
import type { Input } from './readInput'

const REDACTED = '[redacted]'

/** The user's id; undefined for an anonymous call an anonymous route serves; or the refusal. */
export async function authenticateRequest(
  kit: Kit,
  request: Request,
  input: Input,
  anonymousRoute: boolean,
  { fail }: Answerer,
): Promise<string | undefined | Response> {
  const { authenticate, allowAnonymous } = kit.config
  const token = /^Bearer ([\x21-\x7e]+)$/i.exec(request.headers.get('Authorization') ?? '')?.[1]
  if (allowAnonymous && anonymousRoute && !token) return undefined
  if (!authenticate || !token) return fail(401, 'unauthenticated', 'Authorization: a bearer token is required.')
  let answer: unknown
  try {
    // A fresh copy, so that authenticate may read the body (the original is consumed).
    const text = 'text' in input ? input.text : undefined
    answer = await authenticate(token, new Request(request.url, { method: request.method, headers: request.headers, body: text }))
  } catch (error) {
    // Session and JWT libraries quote the token they refused: it is a bearer credential.
    kit.log(`authenticate threw: ${describe(error).split(token).join(REDACTED)}`)
  }
  if (typeof answer === 'string' && answer !== '') return answer
  if (answer) {
    kit.logOnce(
      'authenticate',
      `authenticate returned ${typeof answer === 'object' ? 'an object' : JSON.stringify(answer)}: it must return your user's id (a non-empty string), which owns what the request creates; the request was refused`,
    )
  }
  return fail(401, 'unauthenticated', 'The partner token was refused.')
}
