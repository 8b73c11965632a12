/// <reference types="vite/client" />

/** True in a sandbox build (a sandbox registry, or `npm start`): sandbox wallet, badge, http on loopback. */
declare const __SANDBOX_BUILD__: boolean
