import type { Clock } from '../../../../src/server/index'

export type SimulatedClock = Clock & { actors: number; readonly jumps: number; readonly sleeping: number }
export function createSimulatedClock(options?: { start?: number; actors?: number }): SimulatedClock
