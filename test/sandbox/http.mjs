// The service's HTTP conventions: JSON bodies, the error envelope, CORS for allowed origins.

export class HttpError extends Error {
  constructor(status, code, message, headers = {}) {
    super(message)
    this.status = status
    this.code = code
    this.headers = headers
  }
}

export const invalid = (field, problem) => new HttpError(400, 'invalid_request', `${field}: ${problem}`)

export function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers })
  res.end(body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body))
}

export function sendError(res, error, headers = {}) {
  send(res, error.status, { error: { code: error.code, message: error.message } }, { ...headers, ...error.headers })
}

export async function readText(req, limit = 64 * 1024) {
  let size = 0
  const chunks = []
  for await (const chunk of req) {
    size += chunk.length
    if (size > limit) throw new HttpError(413, 'invalid_request', 'body: too large')
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

export async function readJson(req, limit = 64 * 1024) {
  const text = await readText(req, limit)
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    throw new HttpError(400, 'invalid_request', 'body: not valid JSON')
  }
}

/** zod issues → invalid_request naming the first bad field. */
export function parseBody(schema, body) {
  const parsed = schema.safeParse(body)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const field = issue.path.length ? issue.path.join('.') : 'body'
  throw invalid(field, issue.code === 'invalid_type' ? typeProblem(issue, body) : issue.message)
}

/** "required" only when the field is missing; otherwise what was expected and what came. */
function typeProblem(issue, body) {
  let value = body
  for (const key of issue.path) value = value === null || typeof value !== 'object' ? undefined : value[key]
  if (value === undefined) return 'required'
  const got = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value
  const a = (type) => (type === 'null' ? type : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`)
  return `expected ${a(issue.expected ?? 'value')}, got ${a(got)}`
}

export function corsHeaders(origin) {
  return {
    'Access-Control-Allow-Origin': origin,
    Vary: 'Origin',
    'Access-Control-Expose-Headers': 'Retry-After',
  }
}
