/// <reference types="vite/client" />

/** True in a sandbox build (a sandbox registry, or `npm start`): sandbox wallet, badge, http on loopback. */
declare const __SANDBOX_BUILD__: boolean
/** The WalletConnect client's file beside the app's chunks (vite.walletconnect.config.ts); '' where there is none (dev, tests). */
declare const __WALLETCONNECT_CLIENT__: string
