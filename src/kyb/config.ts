// Configuration of the live registers, from KYX_ environment variables, and the live source set built from it.
// A register whose credentials are not set is left out: its check becomes `review` ("no source"), never a guess.
import { createCompaniesHouseSource, type CompaniesHouseConfig } from './sources/companies-house.ts';
import { createFcaSource, type FcaConfig } from './sources/fca.ts';
import { createGleifSource } from './sources/gleif.ts';
import type { SourceEndpointConfig } from './sources/http.ts';
import { createViesSource } from './sources/vies.ts';
import type { Clock, KybSources } from './types.ts';

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

/** VIES member state codes (VAT prefixes): the EU 27 with Greece as EL, and XI for Northern Ireland traders. */
export const VIES_MEMBER_STATES = (
  'AT BE BG CY CZ DE DK EE EL ES FI FR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK XI'
).split(' ');

type Env = Record<string, string | undefined>;

function endpoint(env: Env, prefix: string, defaults: { baseUrl: string; ratePerSecond: number; burst: number }) {
  const number = (name: string, fallback: number) => {
    const value = Number(env[`${prefix}_${name}`] ?? env[`KYX_KYB_${name}`]);
    return Number.isFinite(value) && value > 0 ? value : fallback;
  };
  return {
    baseUrl: env[`${prefix}_BASE_URL`] || defaults.baseUrl,
    timeoutMs: number('TIMEOUT_MS', 4000),
    maxAttempts: number('MAX_ATTEMPTS', 3),
    ratePerSecond: number('RATE_PER_SECOND', defaults.ratePerSecond),
    burst: number('BURST', defaults.burst),
    backoffBaseMs: number('BACKOFF_MS', 200),
  };
}

/**
 * KYX_COMPANIES_HOUSE_API_KEY, KYX_FCA_API_EMAIL + KYX_FCA_API_KEY enable those registers; GLEIF and VIES need no
 * credentials and are on unless KYX_GLEIF_ENABLED / KYX_VIES_ENABLED is "false". Per register
 * (KYX_COMPANIES_HOUSE_, KYX_GLEIF_, KYX_VIES_, KYX_FCA_): _BASE_URL, _TIMEOUT_MS, _MAX_ATTEMPTS, _RATE_PER_SECOND,
 * _BURST, _BACKOFF_MS, each defaulting to KYX_KYB_<NAME>. KYX_KYB_BUDGET_MS bounds one verification (10000).
 */
export function kybConfigFromEnv(env: Env = process.env): KybConfig {
  const chKey = env.KYX_COMPANIES_HOUSE_API_KEY;
  const fcaEmail = env.KYX_FCA_API_EMAIL;
  const fcaKey = env.KYX_FCA_API_KEY;
  const budget = Number(env.KYX_KYB_BUDGET_MS);
  return {
    budgetMs: Number.isFinite(budget) && budget > 0 ? budget : 10_000,
    sources: {
      // Companies House allows 600 requests per 5 minutes; one verification makes 3.
      ...(chKey
        ? {
            companiesHouse: {
              ...endpoint(env, 'KYX_COMPANIES_HOUSE', {
                baseUrl: 'https://api.company-information.service.gov.uk',
                ratePerSecond: 2,
                burst: 20,
              }),
              apiKey: chKey,
            },
          }
        : {}),
      ...(env.KYX_GLEIF_ENABLED === 'false'
        ? {}
        : { gleif: endpoint(env, 'KYX_GLEIF', { baseUrl: 'https://api.gleif.org', ratePerSecond: 1, burst: 10 }) }),
      ...(env.KYX_VIES_ENABLED === 'false'
        ? {}
        : {
            vies: endpoint(env, 'KYX_VIES', {
              baseUrl: 'https://ec.europa.eu/taxation_customs/vies/rest-api',
              ratePerSecond: 2,
              burst: 5,
            }),
          }),
      // The FCA register allows 50 requests per 10 seconds.
      ...(fcaEmail && fcaKey
        ? {
            fca: {
              ...endpoint(env, 'KYX_FCA', { baseUrl: 'https://register.fca.org.uk/services', ratePerSecond: 5, burst: 10 }),
              email: fcaEmail,
              apiKey: fcaKey,
            },
          }
        : {}),
    },
  };
}

export function createLiveSources(config: KybSourcesConfig, clock: Clock = { now: () => Date.now() }): KybSources {
  const vies = config.vies && createViesSource(config.vies, clock);
  return {
    registries: config.companiesHouse ? { GB: createCompaniesHouseSource(config.companiesHouse, clock) } : {},
    taxAuthorities: vies ? Object.fromEntries(VIES_MEMBER_STATES.map((state) => [state, vies])) : {},
    regulators: config.fca ? { GB: createFcaSource(config.fca, clock) } : {},
    ...(config.gleif ? { lei: createGleifSource(config.gleif, clock) } : {}),
  };
}
