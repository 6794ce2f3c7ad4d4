// The types every module shares, and nothing else: this file has no run-time imports, so any module may import
// it without creating a cycle. The composition root (src/bootstrap.ts) builds what these types describe.
import type { FastifyInstance } from 'fastify';
import type { Migration } from 'kysely';
import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import type { Storage, Dialect } from './storage/database.ts';
import type { Database } from './storage/schema.ts';
import type { Keyring } from './accounts/signing-keys.ts';
import type { Credentials } from './accounts/credentials.ts';
import type { Meter, Meters } from './accounts/meters.ts';
import type { UsageCounter } from './accounts/usage.ts';
import type { FloodLimiter } from './http/flood.ts';
import type { CheckStore } from './storage/checks.ts';
import type { ReportContent } from './reports/content.ts';
import type { EventLog } from './events/log.ts';
import type { Registry } from 'prom-client';

/** A key's environment. */
export type KeyEnvironment = 'test' | 'live';
/** A stored record's environment: what a test key creates is `sandbox`. */
export type RecordEnvironment = 'sandbox' | 'live';

/** A table a check kind is stored in: its domain declares it with `id, account_id, environment, created_at, record`. */
export type CheckTable = keyof Database & string;

/** One kind of check (KYC, KYB, AML, KYA, …), declared by its domain and registered through its module. */
export interface CheckKindDefinition {
  /** `kyc`, `kyb`, … */
  kind: string;
  /** Ids are `<idPrefix>_<random>`; the prefix tells the kind of any check id. */
  idPrefix: string;
  table: CheckTable;
  /** How people call one: "KYC check". */
  label: string;
  /** The usage meter a live check bills. */
  meter: Meter;
  /** The check's own report. */
  report: { code: string; title: string; produce(record: Record<string, unknown>): ReportContent };
  /** The column of its table that holds the outcome `summary().status` reports, for filtering lists. */
  statusColumn: string;
  /** The public JSON from the stored `record` column, for a kind that stores more than that. */
  publicRecord?(stored: unknown): Record<string, unknown>;
  /** The outcomes that await a person's decision. A kind without it is never reviewed. */
  review?: { awaiting: readonly string[] };
  /** What a list of checks of every kind shows of one: its outcome and who or what was checked (`unknown`/null where the record lacks them). */
  summary(record: Record<string, unknown>): CheckSummary;
}

export interface CheckSummary {
  /** The kind's own outcome word (`passed`, `potential_match`, `blocked`, …). */
  status: string;
  /** The person, company, name or agent checked; null when the record names none. */
  subject: string | null;
}

/** A person's decision on a check whose outcome awaited one; made once. */
export interface CheckReview {
  decision: 'approved' | 'rejected';
  reason: string;
  /** The user (`usr_…`) or API key (`key_…`) or token subject that decided. */
  decidedBy: string;
  decidedAt: string;
}

/** A stored check of any kind, as reports, bundles and lists see it. */
export interface StoredCheck {
  id: string;
  kind: string;
  accountId: string;
  environment: RecordEnvironment;
  createdAt: string;
  /** The check's public JSON, exactly as its GET route returns it (with `review` once a person decided it). */
  record: Record<string, unknown>;
  summary: CheckSummary;
}

/** Finds a check of any kind for one tenant (never another tenant's). */
export type CheckLookup = (accountId: string, id: string) => Promise<StoredCheck | undefined>;

export interface ReadinessCheck {
  name: string;
  /** Rejects when the dependency cannot serve. */
  check(): Promise<void>;
  /** Problems that do not stop serving (a list that failed to parse while its last good version serves). */
  warnings?(): string[];
}

/** What the composition root gives every module: configuration, storage and the shared services. */
export interface Platform {
  config: Config;
  storage: Storage;
  redis?: Redis;
  keyring: Keyring;
  credentials: Credentials;
  usage: UsageCounter;
  meters: Meters;
  flood: FloodLimiter;
  /** Every registered check kind: insert and bill, find, list. */
  checks: CheckStore;
  /** The outbox: modules emit events in the transaction of their cause. */
  events: EventLog;
  readiness: ReadinessCheck[];
  /** Prometheus metrics (GET /metrics): modules add their own gauges and counters. */
  metrics: Registry;
  /** Run at close, newest first (modules register their workers, timers and pools here). */
  closers: (() => Promise<void>)[];
}

/**
 * The services modules provide, by module name. Each module adds its own by declaration merging
 * (`declare module '../core.ts' { interface ModuleServices { aml: AmlService } }`); a module receives only the
 * ones it names in `requires`.
 */
export interface ModuleServices {}

export type ServiceName = keyof ModuleServices;

/** A running instance: the platform and every module's service. */
export interface AppContext extends Platform {
  services: ModuleServices;
}

/**
 * A module (accounts, aml, kyc, …) plugs into the service through one object: its migrations, its check kinds,
 * the service it builds from the platform and the services it requires, and its routes.
 */
export interface DomainModule<Service = unknown, Requires extends ServiceName = never> {
  name: string;
  /** Other modules' services this one uses; the composition root sets those up first and passes them in. */
  requires?: readonly Requires[];
  /** Names start with the module's order number (001_, 010_, …) so they sort into the order they must run. */
  migrations?(dialect: Dialect): Record<string, Migration>;
  checkKinds?: readonly CheckKindDefinition[];
  /** Builds the module's service; registers readiness checks and closers on the platform. */
  setup?(platform: Platform, requires: Pick<ModuleServices, Requires>): Promise<Service>;
  routes?(app: FastifyInstance, wiring: { platform: Platform; service: Service }): Promise<void>;
  /** Slow one-time preparation (fonts, models) that a server does after it listens; tests skip it. */
  warmUp?(service: Service): Promise<void>;
}
