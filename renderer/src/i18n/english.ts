import type { Catalog } from './catalog';

/**
 * Every English string registered so far, key → template: the first screen's areas (catalog.ts imports them),
 * then each other area when the first module that names one of its keys loads. `translate` reads it at each
 * call, so strings registered later are seen at once.
 */
export const EN_CATALOG: Catalog = {};

/**
 * Registers an area's English strings when its module (messages/<area>.ts) is first evaluated, and returns
 * them as given, so the area's keys keep their type. A module that names a key of a lazily loaded area
 * imports that area's module: the import runs this before any of the module's code can use the key.
 */
export function english<Messages extends Catalog>(messages: Messages): Messages {
  Object.assign(EN_CATALOG, messages);
  return messages;
}
