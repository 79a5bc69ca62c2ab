// Starts this process's check engine and registers its shutdown (server and worker processes).
import type { EngineHost } from './ports.ts';
import { createEngine, type Engine, type EngineOptions } from './scheduler.ts';

export function startEngine(services: EngineHost & { monitoring?: { engine?: Engine } }, opts: EngineOptions = {}): Engine {
  const engine = createEngine(services, opts);
  services.monitoring = { ...services.monitoring, engine };
  (services.onShutdown ??= []).unshift(() => engine.stop());
  engine.start();
  return engine;
}

export type { Engine, EngineOptions };
