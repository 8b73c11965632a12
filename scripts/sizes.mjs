#!/usr/bin/env node
// Prints the sizes the budget test checks (run after `npm run build`): `node scripts/sizes.mjs [DIR]`
// (default dist/, or WIDGET_DIST as the budget test reads it).
import { existsSync, readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { createServer } from 'vite'

const dist = (process.argv[2] ?? process.env.WIDGET_DIST ?? 'dist').replace(/\/+$/, '')
const server = await createServer({ server: { middlewareMode: true }, appType: 'custom', logLevel: 'silent' })
const { measure } = await server.ssrLoadModule('/test/size/bundleSizes.ts')
const sizes = measure(dist)
await server.close()
const kb = (n) => `${(n / 1024).toFixed(1)} KB`
console.log(`script-tag loader              ${kb(sizes.loader)}`)
const runtimeFile = existsSync(`${dist}/.vite/runtime.json`)
  ? JSON.parse(readFileSync(`${dist}/.vite/runtime.json`, 'utf8'))['src/embed/runtime.ts']?.file
  : undefined
if (runtimeFile) console.log(`  its runtime (first call)     ${kb(gzipSync(readFileSync(`${dist}/${runtimeFile}`), { level: 9 }).length)}`)
console.log(`hosted page, first load        ${kb(sizes.initial)}`)
console.log(`deposit before interaction     ${kb(sizes.flows.deposit)} (+ wallet code ${kb(sizes.wallet)} = ${kb(sizes.flows.deposit + sizes.wallet)})`)
console.log(`card before interaction        ${kb(sizes.flows.card)}`)
console.log(`onboarding before interaction  ${kb(sizes.flows.onboarding)}`)
console.log(`bankDeposit before interaction ${kb(sizes.flows.bankDeposit)}`)
console.log(
  `payout before interaction      ${kb(sizes.flows.payout)} (+ wallet code ${kb(sizes.payoutWallet)} = ${kb(sizes.flows.payout + sizes.payoutWallet)})`,
)
console.log('files (gzip / brotli):')
for (const [file, s] of Object.entries(sizes.files)) console.log(`  ${file.padEnd(40)} ${kb(s.gzip).padStart(8)} ${kb(s.brotli).padStart(8)}`)
