// A static host for a built dist/ folder, as a CDN serves it: the files, and the headers that the
// build wrote into `_headers` (so the tests run under the real Content-Security-Policy).
import { existsSync, readFileSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import { extname, join, normalize } from 'node:path'

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
}

/** `_headers`: a path line (exact, or ending in `*`), then indented `Name: value` lines. */
export function parseHeadersFile(text) {
  const rules = []
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue
    if (/^\s/.test(line)) {
      const at = line.indexOf(':')
      rules.at(-1)?.headers.push([line.slice(0, at).trim(), line.slice(at + 1).trim()])
    } else rules.push({ path: line.trim(), headers: [] })
  }
  return rules
}

const matches = (rule, path) => (rule.path.endsWith('*') ? path.startsWith(rule.path.slice(0, -1)) : rule.path === path)

export function serveStatic({ dir, port, host = '127.0.0.1' }) {
  const headersFile = join(dir, '_headers')
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://static.local')
    let path = decodeURIComponent(url.pathname)
    const rules = existsSync(headersFile) ? parseHeadersFile(readFileSync(headersFile, 'utf8')) : []
    const headers = Object.fromEntries(rules.filter((r) => matches(r, path)).flatMap((r) => r.headers))
    let file = normalize(join(dir, path))
    if (!file.startsWith(normalize(dir))) {
      res.writeHead(403).end()
      return
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html')
    if (path.endsWith('/')) path += 'index.html'
    if (!existsSync(file) || path.split('/').some((part) => part.startsWith('.') || part === '_headers')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found')
      return
    }
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache', ...headers })
    res.end(readFileSync(file))
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () =>
      resolve({
        url: `http://${host}:${port}`,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections()
            server.close(r)
          }),
      }),
    )
  })
}
