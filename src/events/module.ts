import type { DomainModule } from '../core.ts';
import { eventMigrations } from './migrations.ts';

/** Owns the events table; the log itself is on the platform (`platform.events`), built by the composition root. */
export const eventsModule: DomainModule = { name: 'events', migrations: eventMigrations };
