// Compiles contracts/*.sol with solcjs (offline), cached by a hash of the sources.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const CONTRACTS = join(ROOT, 'contracts')
const CACHE = join(ROOT, '.sandbox-state')

export function compileContracts() {
  const files = readdirSync(CONTRACTS)
    .filter((f) => f.endsWith('.sol'))
    .sort()
  const sources = Object.fromEntries(files.map((f) => [f, { content: readFileSync(join(CONTRACTS, f), 'utf8') }]))
  const hash = createHash('sha256').update(JSON.stringify(sources)).digest('hex').slice(0, 16)
  const cached = join(CACHE, `contracts-${hash}.json`)
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8'))
  const solc = createRequire(import.meta.url)('solc')
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources,
        settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
      }),
    ),
  )
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
  const artifacts = {}
  for (const file of Object.values(output.contracts)) {
    for (const [name, c] of Object.entries(file)) artifacts[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` }
  }
  mkdirSync(CACHE, { recursive: true })
  writeFileSync(cached, JSON.stringify(artifacts))
  return artifacts
}
