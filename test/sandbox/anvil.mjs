// Starts anvil as the real process (never through npx, so killing it frees the port).
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'

const LOCAL_BIN = fileURLToPath(new URL('../../node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil', import.meta.url))
export const ANVIL_BIN = process.env.ANVIL_PATH ?? (existsSync(LOCAL_BIN) ? LOCAL_BIN : 'anvil')

/** Resolves once nothing listens on 127.0.0.1:port (anvil needs about a second after exit). */
export async function waitPortFree(port, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const free = await new Promise((resolve) => {
      const probe = createServer()
      probe.once('error', () => resolve(false))
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
    })
    if (free) return
    if (Date.now() > deadline) throw new Error(`port ${port} still busy after ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

export async function startAnvil({ chainId, port }) {
  // A node already on the port would answer eth_chainId in place of ours.
  await waitPortFree(port, 3_000).catch(() => {
    throw new Error(`port ${port} is in use: stop whatever listens there (an earlier sandbox?)`)
  })
  const child = spawn(ANVIL_BIN, ['--chain-id', String(chainId), '--port', String(port), '--host', '127.0.0.1', '--silent'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (d) => (stderr += d))
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 15_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil (chain ${chainId}) exited: ${stderr}`)
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      })
      const body = await res.json()
      if (Number.parseInt(body.result, 16) === chainId) break
      throw new Error(`port ${port} answers chain ${body.result}, not ${chainId}: is another node running there?`)
    } catch (error) {
      if (String(error.message).includes('is another node')) {
        child.kill('SIGKILL')
        throw error
      }
      if (Date.now() > deadline) {
        child.kill('SIGKILL')
        throw new Error(`anvil (chain ${chainId}) did not start on ${port}: ${stderr}`)
      }
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  return {
    url,
    chainId,
    pid: child.pid,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
      await waitPortFree(port)
    },
  }
}
