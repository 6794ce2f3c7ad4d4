// The KYB section of the configuration: the live registers, from KYX_ environment variables.
// A register whose credentials are not set is left out: its check becomes `review` ("no source"), never a guess.
import type { EnvReader } from '../env.ts';
import type { CompaniesHouseConfig } from './sources/companies-house.ts';
import type { FcaConfig } from './sources/fca.ts';
import type { SourceEndpointConfig } from './sources/http.ts';

export interface KybSourcesConfig {
  companiesHouse?: CompaniesHouseConfig;
  gleif?: SourceEndpointConfig;
  vies?: SourceEndpointConfig;
  fca?: FcaConfig;
}

export interface KybConfig {
  sources: KybSourcesConfig;
  /** Budget of one verification, registers and screening included. */
  budgetMs: number;
}

interface EndpointDefaults {
  baseUrl: string;
  ratePerSecond: number;
  burst: number;
}

/** Settings every register shares unless its own variable says otherwise. */
interface SharedEndpointSettings {
  timeoutMs: number;
  maxAttempts: number;
  backoffBaseMs: number;
  ratePerSecond?: number;
  burst?: number;
}

function endpoint(env: EnvReader, prefix: string, shared: SharedEndpointSettings, defaults: EndpointDefaults): SourceEndpointConfig {
  const register = prefix.replace(/^KYX_/, '').toLowerCase().replace(/_/g, ' ');
  return {
    baseUrl: env.string(`${prefix}_BASE_URL`, { description: `${register} API base URL`, fallback: defaults.baseUrl, sensitivity: 'url' }),
    timeoutMs: env.positive(`${prefix}_TIMEOUT_MS`, { description: `${register}: longest single attempt`, fallback: shared.timeoutMs }),
    maxAttempts: env.positive(`${prefix}_MAX_ATTEMPTS`, { description: `${register}: attempts including the first`, fallback: shared.maxAttempts }),
    ratePerSecond: env.positive(`${prefix}_RATE_PER_SECOND`, {
      description: `${register}: sustained requests per second`,
      fallback: shared.ratePerSecond ?? defaults.ratePerSecond,
    }),
    burst: env.positive(`${prefix}_BURST`, { description: `${register}: requests back to back before the rate applies`, fallback: shared.burst ?? defaults.burst }),
    backoffBaseMs: env.positive(`${prefix}_BACKOFF_MS`, { description: `${register}: first back-off delay, doubling`, fallback: shared.backoffBaseMs }),
  };
}

/**
 * KYX_COMPANIES_HOUSE_API_KEY, KYX_FCA_API_EMAIL + KYX_FCA_API_KEY enable those registers; GLEIF and VIES need no
 * credentials and are on unless KYX_GLEIF_ENABLED / KYX_VIES_ENABLED is off. Per register
 * (KYX_COMPANIES_HOUSE_, KYX_GLEIF_, KYX_VIES_, KYX_FCA_): _BASE_URL, _TIMEOUT_MS, _MAX_ATTEMPTS, _RATE_PER_SECOND,
 * _BURST, _BACKOFF_MS, each defaulting to KYX_KYB_<NAME>. KYX_KYB_BUDGET_MS bounds one verification (10000).
 */
export function kybConfig(env: EnvReader): KybConfig {
  const budgetMs = env.positive('KYX_KYB_BUDGET_MS', { description: 'time budget of one KYB verification, registers and screening included', fallback: 10_000 });
  const shared: SharedEndpointSettings = {
    timeoutMs: env.positive('KYX_KYB_TIMEOUT_MS', { description: 'every register: longest single attempt', fallback: 4000 }),
    maxAttempts: env.positive('KYX_KYB_MAX_ATTEMPTS', { description: 'every register: attempts including the first', fallback: 3 }),
    backoffBaseMs: env.positive('KYX_KYB_BACKOFF_MS', { description: 'every register: first back-off delay, doubling', fallback: 200 }),
    ratePerSecond: env.positive('KYX_KYB_RATE_PER_SECOND', { description: "every register: sustained requests per second (else each register's own)" }),
    burst: env.positive('KYX_KYB_BURST', { description: "every register: requests back to back (else each register's own)" }),
  };
  const chKey = env.string('KYX_COMPANIES_HOUSE_API_KEY', { description: 'Companies House API key; enables the UK company register', sensitivity: 'secret' });
  const gleifEnabled = env.flag('KYX_GLEIF_ENABLED', { description: 'query GLEIF for LEIs', fallback: true });
  const viesEnabled = env.flag('KYX_VIES_ENABLED', { description: 'query VIES for EU VAT numbers', fallback: true });
  const fcaEmail = env.string('KYX_FCA_API_EMAIL', { description: 'FCA register API account e-mail (with KYX_FCA_API_KEY)' });
  const fcaKey = env.string('KYX_FCA_API_KEY', { description: 'FCA register API key; enables the UK regulator register', sensitivity: 'secret' });
  // Every register's settings are read (and checked) whether or not the register is on.
  const companiesHouse = endpoint(env, 'KYX_COMPANIES_HOUSE', shared, { baseUrl: 'https://api.company-information.service.gov.uk', ratePerSecond: 2, burst: 20 });
  const gleif = endpoint(env, 'KYX_GLEIF', shared, { baseUrl: 'https://api.gleif.org', ratePerSecond: 1, burst: 10 });
  const vies = endpoint(env, 'KYX_VIES', shared, { baseUrl: 'https://ec.europa.eu/taxation_customs/vies/rest-api', ratePerSecond: 2, burst: 5 });
  const fca = endpoint(env, 'KYX_FCA', shared, { baseUrl: 'https://register.fca.org.uk/services', ratePerSecond: 5, burst: 10 });
  const sources: KybSourcesConfig = {
    ...(chKey ? { companiesHouse: { ...companiesHouse, apiKey: chKey } } : {}),
    ...(gleifEnabled ? { gleif } : {}),
    ...(viesEnabled ? { vies } : {}),
    ...(fcaEmail && fcaKey ? { fca: { ...fca, email: fcaEmail, apiKey: fcaKey } } : {}),
  };
  return { budgetMs, sources };
}
