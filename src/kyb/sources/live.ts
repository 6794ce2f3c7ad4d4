// The live source set: the public registers the configuration enables.
import type { KybSourcesConfig } from '../config.ts';
import type { Clock, KybSources } from '../types.ts';
import { createCompaniesHouseSource } from './companies-house.ts';
import { createFcaSource } from './fca.ts';
import { createGleifSource } from './gleif.ts';
import { createViesSource } from './vies.ts';

/** VIES member state codes (VAT prefixes): the EU 27 with Greece as EL, and XI for Northern Ireland traders. */
export const VIES_MEMBER_STATES = (
  'AT BE BG CY CZ DE DK EE EL ES FI FR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK XI'
).split(' ');

export function createLiveSources(config: KybSourcesConfig, clock: Clock = { now: () => Date.now() }): KybSources {
  const vies = config.vies && createViesSource(config.vies, clock);
  return {
    registries: config.companiesHouse ? { GB: createCompaniesHouseSource(config.companiesHouse, clock) } : {},
    taxAuthorities: vies ? Object.fromEntries(VIES_MEMBER_STATES.map((state) => [state, vies])) : {},
    regulators: config.fca ? { GB: createFcaSource(config.fca, clock) } : {},
    ...(config.gleif ? { lei: createGleifSource(config.gleif, clock) } : {}),
  };
}
