#!/usr/bin/env node
// Prints the sizes the budget test checks (run after `npm run build`).
import { createServer } from 'vite'

const server = await createServer({ server: { middlewareMode: true }, appType: 'custom', logLevel: 'silent' })
const { measure } = await server.ssrLoadModule('/test/size/bundleSizes.ts')
const sizes = measure()
await server.close()
const kb = (n) => `${(n / 1024).toFixed(1)} KB`
console.log(`script-tag loader           ${kb(sizes.loader)}`)
console.log(`hosted page, first load     ${kb(sizes.initial)}`)
console.log(`deposit before interaction  ${kb(sizes.flows.deposit)} (+ wallet code ${kb(sizes.wallet)})`)
console.log(`card before interaction     ${kb(sizes.flows.card)}`)
console.log(`fiat before interaction     ${kb(sizes.flows.onboarding)}`)
console.log('files (gzip / brotli):')
for (const [file, s] of Object.entries(sizes.files)) console.log(`  ${file.padEnd(40)} ${kb(s.gzip).padStart(8)} ${kb(s.brotli).padStart(8)}`)
